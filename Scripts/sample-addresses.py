#!/usr/bin/env python3
"""Draws a random sample of the addressed objects of an OSM extract, from the extract's own
addr:* tags, for the geocoding tests (issue 21): nobody chooses the addresses, the seed does.

    python3 Scripts/sample-addresses.py EXTRACT.osm.pbf [--count 200] [--seed 21] [--unnamed] > sample.json

An addressed object is a node or a way with addr:housenumber and addr:street (or addr:place, the
villages without street names). Its position is the node, or the mean of the way's nodes that the
extract holds (an extract cut by a box keeps a way whose nodes are partly outside; a way with none
of its nodes is left out, it has no position to check against). Relations are left out for the
same reason. Objects are listed in id order before sampling, so one extract and one seed always
give the same sample.

Output: a JSON list of {"id", "lat", "lon", "housenumber", "street", "place", "postcode",
"city", "country", "building", "named"}, absent tags as null. Uses pyosmium (pip package "osmium"), an
OSM reader independent of ours.
"""
import argparse
import json
import random
import sys

import osmium

KEYS = ["housenumber", "street", "place", "postcode", "city", "country"]


class Addresses(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.found = []

    def take(self, kind, obj, lat, lon):
        tags = obj.tags
        if "addr:housenumber" not in tags or ("addr:street" not in tags and "addr:place" not in tags):
            return
        entry = {"id": f"{kind}{obj.id}", "lat": round(lat, 7), "lon": round(lon, 7)}
        for key in KEYS:
            entry[key] = tags.get("addr:" + key)
        entry["building"] = kind == "w" and "building" in tags
        # A named object (a shop, a café, a named building) is a point of interest with an
        # address; an unnamed one is the address itself (an address point, a building).
        entry["named"] = "name" in tags
        self.found.append(entry)

    def node(self, n):
        if n.location.valid():
            self.take("n", n, n.location.lat, n.location.lon)

    def way(self, w):
        points = [(node.location.lat, node.location.lon) for node in w.nodes if node.location.valid()]
        # A closed way repeats its first node; count it once.
        if len(points) > 1 and w.nodes[0].ref == w.nodes[-1].ref:
            points = points[:-1]
        if points:
            self.take("w", w, sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("extract")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--unnamed", action="store_true",
                        help="only objects without a name: address points and buildings, what a reverse geocode at them should give")
    args = parser.parse_args()
    handler = Addresses()
    # Node locations are needed for ways; a small extract fits the in-memory index.
    handler.apply_file(args.extract, locations=True, idx="flex_mem")
    found = sorted(handler.found, key=lambda e: (e["id"][0], int(e["id"][1:])))
    if args.unnamed:
        found = [e for e in found if not e["named"]]
    sample = random.Random(args.seed).sample(found, min(args.count, len(found)))
    json.dump(sample, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    print(f"{len(sample)} of {len(found)} addressed objects", file=sys.stderr)


if __name__ == "__main__":
    main()
