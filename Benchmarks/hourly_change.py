#!/usr/bin/env python3
"""Makes the next version of an OSM extract with an hourly-sized change of mixed edits, for the
update benchmark: `osmium derive-changes` between the two gives the osmChange.

An hour of OpenStreetMap edits inside a region is mostly mapping: new buildings, moved nodes,
tags added to roads and buildings, a few renames and deletions. The edits here follow that mix,
chosen by a seeded random generator among the extract's own elements (so the same input always
gives the same output, and nothing depends on which region it is):

- new buildings (4 new nodes and a closed way each) beside existing nodes (about 40% of objects);
- nodes of ways moved a few metres (25%);
- roads retagged (maxspeed and surface) and buildings given levels (20%);
- named ways renamed (5%);
- points of interest deleted (5%), and new ones added (5%).

Each changed element's version goes up by one (osmium tells a modification by its version); the
header's bounding box is kept.

usage: hourly_change.py OLD.osm.pbf NEW.osm.pbf [OBJECTS]   (OBJECTS: about how many, default 3000)
"""
import json
import random
import sys

import osmium


def main():
    source, destination = sys.argv[1], sys.argv[2]
    objects = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
    rng = random.Random(20261128)
    way_nodes_used, tagged_nodes, pois, roads, buildings, named = set(), set(), [], [], [], []
    max_node = max_way = 0
    for o in osmium.FileProcessor(source):
        if o.is_node():
            max_node = max(max_node, o.id)
            if len(o.tags):
                tagged_nodes.add(o.id)
                if "amenity" in o.tags or "shop" in o.tags:
                    pois.append(o.id)
        elif o.is_way():
            max_way = max(max_way, o.id)
            way_nodes_used.update(n.ref for n in o.nodes)
            if "highway" in o.tags:
                roads.append(o.id)
            if "building" in o.tags:
                buildings.append(o.id)
            if "name" in o.tags:
                named.append(o.id)
    movable = sorted(way_nodes_used - tagged_nodes)
    pois = [p for p in pois if p not in way_nodes_used]

    def pick(population, share):
        return set(rng.sample(population, min(len(population), int(objects * share))))

    new_buildings = int(objects * 0.40 / 5)
    moved = pick(movable, 0.25)
    retagged = pick(sorted(roads), 0.12) | pick(sorted(buildings), 0.08)
    renamed = pick(sorted(named), 0.05)
    deleted = pick(pois, 0.05)
    new_pois = int(objects * 0.05)
    anchors = rng.sample(movable, min(len(movable), new_buildings + new_pois))

    reader = osmium.io.Reader(source)
    header = reader.header()
    reader.close()
    out_header = osmium.io.Header()
    if header.box().valid():
        out_header.add_box(header.box())
    locations = {}
    anchor_set = set(anchors)
    next_node, next_way = max_node + 1, max_way + 1
    added_ways = []
    state = {"nodes": False}
    with osmium.SimpleWriter(destination, overwrite=True, header=out_header) as writer:
        def flush_nodes():
            # New nodes after the old ones, as the extract's order requires (then their ways).
            nonlocal next_node
            if state["nodes"]:
                return
            state["nodes"] = True
            for k, anchor in enumerate(anchors):
                lon, lat = locations[anchor]
                if k < new_buildings:
                    lon, lat = lon + 0.0002, lat + 0.0002
                    corners = []
                    for dx, dy in ((0, 0), (0.00012, 0), (0.00012, 0.00009), (0, 0.00009)):
                        writer.add_node(osmium.osm.mutable.Node(id=next_node, version=1, location=(lon + dx, lat + dy)))
                        corners.append(next_node)
                        next_node += 1
                    added_ways.append(corners + corners[:1])
                else:
                    writer.add_node(osmium.osm.mutable.Node(id=next_node, version=1, location=(lon - 0.0001, lat + 0.0001),
                                                            tags={"amenity": "cafe", "name": f"Café {next_node}"}))
                    next_node += 1

        for o in osmium.FileProcessor(source):
            if o.is_node():
                if o.id in anchor_set:
                    locations[o.id] = (o.location.lon, o.location.lat)
                if o.id in deleted:
                    continue
                if o.id in moved:
                    writer.add_node(o.replace(version=o.version + 1, location=(o.location.lon + rng.uniform(-4e-5, 4e-5),
                                                                               o.location.lat + rng.uniform(-4e-5, 4e-5))))
                    continue
                writer.add_node(o)
            elif o.is_way():
                flush_nodes()
                if o.id in retagged or o.id in renamed:
                    tags = dict(o.tags)
                    if o.id in renamed:
                        tags["name"] = tags["name"] + " (renamed)"
                    if o.id in retagged and "highway" in tags:
                        tags["maxspeed"] = rng.choice(["30", "50", "70"])
                        tags["surface"] = rng.choice(["asphalt", "paved", "gravel"])
                    elif o.id in retagged:
                        tags["building:levels"] = str(rng.randint(1, 8))
                    writer.add_way(o.replace(version=o.version + 1, tags=tags))
                    continue
                writer.add_way(o)
            elif o.is_relation():
                flush_nodes()
                if added_ways:
                    for nodes in added_ways:
                        writer.add_way(osmium.osm.mutable.Way(id=next_way, version=1, nodes=nodes, tags={"building": "yes"}))
                        next_way += 1
                    added_ways = []
                writer.add_relation(o)
        flush_nodes()
        for nodes in added_ways:
            writer.add_way(osmium.osm.mutable.Way(id=next_way, version=1, nodes=nodes, tags={"building": "yes"}))
            next_way += 1
    print(json.dumps({"newBuildings": new_buildings, "moved": len(moved), "retagged": len(retagged), "renamed": len(renamed),
                      "deletedPOIs": len(deleted), "newPOIs": new_pois}))


if __name__ == "__main__":
    main()
