#!/usr/bin/env python3
"""Two Apple Maps client libraries from PyPI, written for Apple's servers, pointed at an
`openmapkit serve` instead: apple-maps-api (the Maps Server API: an ES256 JWT traded at /v1/token
for an access token, then geocode, reverse geocode, search with categories, result types and
pages, autocomplete and completion URLs, every answer validated by its pydantic models) and
mapsnap (signed Maps Web Snapshots URLs).

usage: apple_clients.py BASE_URL PRIVATE_KEY.pem TEAM_ID KEY_ID (open|keys)

"keys": the server registered the key's public half (`serve --maps-keys`), so it checks every JWT
and signature; a key it does not know, a tampered signature and an expired JWT must be refused.
"open": the server runs without keys and takes any token, as on loopback by default.
Prints one line per check; exits 1 on the first failure.
"""
import sys
import time

import httpx2
import jwt
from apple_maps_api import AppleMapsClient
from apple_maps_api.models import PoiCategory, SearchResultType
from mapsnap import MapSnap
from mapsnap.utils import Annotation, ColorScheme, MapType, MarkerStyle

BASE, KEY_FILE, TEAM, KEY_ID, MODE = sys.argv[1:6]
BASE = BASE.rstrip("/")
PRIVATE_KEY = open(KEY_FILE, encoding="utf-8").read()
CASINO = (43.7396, 7.4279)


def check(condition, what):
    if not condition:
        print(f"FAILED: {what}")
        sys.exit(1)
    print(f"ok: {what}")


def client(key_id=KEY_ID, team=TEAM):
    maps = AppleMapsClient(team_id=team, key_id=key_id, private_key=PRIVATE_KEY)
    maps.base_url = BASE
    return maps


def status(url, headers=None):
    return httpx2.get(url, headers=headers or {}, timeout=30).status_code


maps = client()
token = maps.create_token()
check(isinstance(token, str) and token, "a JWT signed with the Maps key is traded at /v1/token for an access token")

places = maps.geocode("Place du Casino, Monaco", lang="fr")
check(len(places.results) > 0 and places.results[0].coordinate is not None, "geocode answers places the client's models accept")
reverse = maps.reverse_geocode(lat=CASINO[0], lng=CASINO[1])
check(len(reverse.results) > 0 and reverse.results[0].formattedAddressLines, "reverse geocode answers an address")

first = maps.search("restaurant", lat=CASINO[0], lng=CASINO[1], enable_pagination=True)
info = first.paginationInfo
check(info is not None and info.nextPageToken and info.totalPageCount >= 2, "search pages: the first page names the next")
seen = {place.id for place in first.results}
pages, next_token = 1, info.nextPageToken
while next_token and pages < 3:
    page = maps.search(page_token=next_token)  # the token alone, as Apple requires
    ids = {place.id for place in page.results}
    check(ids and seen.isdisjoint(ids), f"page {pages + 1} by its token alone brings new places")
    seen |= ids
    pages += 1
    next_token = page.paginationInfo.nextPageToken if page.paginationInfo else None

museums = maps.search("museum", categories=[PoiCategory.Museum], result_type_filter=[SearchResultType.pointOfInterest])
check(len(museums.results) > 0 and all(p.poiCategory == "Museum" for p in museums.results), "search by category and result type")
addresses = maps.search("Boulevard Albert 1er", result_type_filter=[SearchResultType.address])
check(len(addresses.results) > 0, "search for addresses only")

suggestions = maps.autocomplete("casi", lat=CASINO[0], lng=CASINO[1])
check(len(suggestions.results) > 0 and suggestions.results[0].completionUrl, "autocomplete suggests places with completion URLs")
completed = maps.search_completion(suggestions.results[0], lang="en")
check(len(completed.results) > 0, "a completion URL is searched as given")

# Snapshots signed as Apple's are: every marker style, glyph text, colour schemes, spans, map types.
snapshots = [
    MapSnap(PRIVATE_KEY.encode(), TEAM, KEY_ID, center="Place du Casino, Monaco", z=15, size="300x200",
            annotations=[Annotation(point="center", markerStyle=MarkerStyle.BALLOON, color="ff0000", glyphText="C")]),
    MapSnap(PRIVATE_KEY.encode(), TEAM, KEY_ID, center=[CASINO[0], CASINO[1]], spn="0.01,0.02", size="320x240",
            colorScheme=ColorScheme.DARK, t=MapType.MUTEDSTANDARD,
            annotations=[Annotation(point=f"{CASINO[0]},{CASINO[1]}", markerStyle=MarkerStyle.DOT, color="0000ff"),
                         Annotation(point="43.7384,7.4246", markerStyle=MarkerStyle.LARGE, glyphText="M")]),
]
for snap in snapshots:
    url = snap.url.replace(MapSnap.BASE_URL, BASE)
    response = httpx2.get(url, timeout=60)
    check(response.status_code == 200 and response.content[:8] == b"\x89PNG\r\n\x1a\n", f"a signed snapshot URL draws a PNG ({url[len(BASE):][:60]}…)")

if MODE == "keys":
    # What a server with registered keys must refuse.
    tampered = snapshots[0].url.replace(MapSnap.BASE_URL, BASE).replace("z=15", "z=16")
    check(status(tampered) == 401, "a snapshot URL changed after signing is refused (401)")
    unsigned = BASE + "/api/v1/snapshot?center=43.7396,7.4279&z=15"
    check(status(unsigned) == 401, "an unsigned snapshot URL is refused (401)")
    try:
        client(key_id="UNKNOWNKEY").create_token()
        check(False, "a JWT of a key the server does not know is refused")
    except httpx2.HTTPStatusError as error:
        check(error.response.status_code == 401, "a JWT of a key the server does not know is refused (401)")
    now = int(time.time())
    expired = jwt.encode({"iss": TEAM, "iat": now - 7200, "exp": now - 3600}, PRIVATE_KEY, algorithm="ES256", headers={"kid": KEY_ID})
    check(status(BASE + "/v1/token", {"Authorization": f"Bearer {expired}"}) == 401, "an expired JWT is refused (401)")
    future = jwt.encode({"iss": TEAM, "iat": now + 3600, "exp": now + 7200}, PRIVATE_KEY, algorithm="ES256", headers={"kid": KEY_ID})
    check(status(BASE + "/v1/token", {"Authorization": f"Bearer {future}"}) == 401, "a JWT issued in the future is refused (401)")
    other_team = jwt.encode({"iss": "OTHERTEAM0", "iat": now, "exp": now + 600}, PRIVATE_KEY, algorithm="ES256", headers={"kid": KEY_ID})
    check(status(BASE + "/v1/token", {"Authorization": f"Bearer {other_team}"}) == 401, "a JWT from another team is refused (401)")
    elsewhere = jwt.encode({"iss": TEAM, "iat": now, "exp": now + 600, "origin": "https://elsewhere.example"}, PRIVATE_KEY,
                           algorithm="ES256", headers={"kid": KEY_ID})
    check(status(BASE + "/v1/token", {"Authorization": f"Bearer {elsewhere}"}) == 403, "a JWT for an origin the key is not allowed is refused (403)")
    check(status(BASE + "/v1/geocode?q=casino", {"Authorization": f"Bearer {jwt.encode({'iss': TEAM, 'iat': now, 'exp': now + 600}, PRIVATE_KEY, algorithm='ES256', headers={'kid': KEY_ID})}"}) == 401,
          "a JWT is not an access token: the API refuses it outside /v1/token (401)")
print("all checks passed")
