// Small shared helpers: DOM lookup, and how places, distances and durations read on the page.

export const $ = (id) => document.getElementById(id);
export const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

export const formatDistance = (m) => m >= 1000 ? `${(m / 1000).toFixed(m >= 10000 ? 0 : 1)} km` : `${Math.round(m / 10) * 10} m`;

export function formatDuration(s) {
  const minutes = Math.max(1, Math.round(s / 60));
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export const placeName = (p) => p.name || (p.formattedAddressLines && p.formattedAddressLines[0]) || 'Dropped pin';

export function placeDetail(p) {
  const lines = (p.formattedAddressLines || []).filter((l) => l !== p.name);
  if (p.poiCategory) lines.unshift(p.poiCategory.replace(/([a-z])([A-Z])/g, '$1 $2'));
  return lines.join(' · ');
}

export const coordinateText = (c) => `${c.latitude.toFixed(6)},${c.longitude.toFixed(6)}`;

export const isCoordinate = (c) => Boolean(c) && Number.isFinite(c.latitude) && Number.isFinite(c.longitude);

// The smallest box around `coordinates`: { south, west, north, east }.
export function boundsOf(coordinates) {
  let south = 90, west = 180, north = -90, east = -180;
  for (const c of coordinates) {
    south = Math.min(south, c.latitude); north = Math.max(north, c.latitude);
    west = Math.min(west, c.longitude); east = Math.max(east, c.longitude);
  }
  return { south, west, north, east };
}

export function setStatus(text, isError = false) {
  const s = $('status');
  s.textContent = text || '';
  s.classList.toggle('error', Boolean(isError));
}
