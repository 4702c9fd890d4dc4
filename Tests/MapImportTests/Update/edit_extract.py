#!/usr/bin/env python3
"""Makes the next version of an OSM extract with one scripted edit of every kind an update must
handle, for the update tests: the old and new extracts are imported, and `osmium derive-changes`
gives the osmChange between them.

Edits (each on the first element, by id, that qualifies, so the same input always gives the same
output): a way renamed; a node of a road moved about 25 m; a building deleted with the nodes only
it used; a point of interest deleted; a new road of new nodes, joined at both ends to nodes of
existing roads; a road's oneway and maxspeed changed; a multipolygon's member dropped; a turn
restriction's kind changed; a node of the coastline moved (the sea changes); an administrative
boundary's level changed (its boundary lines change); an untagged node made a named cafe. Each changed element's version goes up by one (osmium derive-changes
tells a modification by its version). Prints the chosen ids as JSON; the header's bounding box is kept.

usage: edit_extract.py OLD.osm.pbf NEW.osm.pbf
"""
import json
import sys

import osmium

ROADS = {"primary", "secondary", "tertiary", "residential", "unclassified", "service", "living_street"}


def main():
    source, destination = sys.argv[1], sys.argv[2]
    way_nodes, node_use, tagged_node_ids = {}, {}, set()
    roads, buildings, named, pois, multipolygons, restrictions = [], [], [], [], [], []
    coastlines, boundaries = [], []
    max_node = max_way = 0
    for o in osmium.FileProcessor(source):
        if o.is_node():
            max_node = max(max_node, o.id)
            if len(o.tags) and "amenity" in o.tags:
                pois.append(o.id)
            if len(o.tags):
                tagged_node_ids.add(o.id)
        elif o.is_way():
            max_way = max(max_way, o.id)
            refs = [n.ref for n in o.nodes]
            way_nodes[o.id] = refs
            for r in refs:
                node_use[r] = node_use.get(r, 0) + 1
            tags = dict(o.tags)
            if tags.get("highway") in ROADS and len(refs) >= 3:
                roads.append(o.id)
            if "building" in tags and len(refs) >= 4 and "name" not in tags:
                buildings.append(o.id)
            if "name" in tags and "highway" in tags:
                named.append(o.id)
            if tags.get("natural") == "coastline" and len(refs) >= 3:
                coastlines.append(o.id)
        elif o.is_relation():
            tags = dict(o.tags)
            if tags.get("type") == "multipolygon" and len(o.members) >= 3:
                multipolygons.append(o.id)
            if tags.get("type") == "restriction" and tags.get("restriction", "").startswith("no_"):
                restrictions.append(o.id)
            if tags.get("type") == "boundary" and tags.get("boundary") == "administrative" and tags.get("admin_level") in ("8", "9", "10"):
                boundaries.append(o.id)

    renamed = named[0]
    moving_road = roads[1]
    moved_node = next(r for r in way_nodes[moving_road][1:-1] if node_use[r] == 1)
    tuned_road = next(w for w in roads if w not in (renamed, moving_road))
    building = next(b for b in buildings if all(node_use[r] == 1 or r == way_nodes[b][0] for r in way_nodes[b]))
    building_nodes = {r for r in way_nodes[building] if node_use[r] == 1 and r not in tagged_node_ids}
    poi = next(p for p in pois if p not in node_use)
    joined = [way_nodes[roads[2]][0], way_nodes[roads[3]][-1]]
    multipolygon = multipolygons[0] if multipolygons else None
    restriction = restrictions[0] if restrictions else None
    coast_way = coastlines[0] if coastlines else None
    coast_node = next((r for r in way_nodes[coast_way][1:-1] if node_use[r] == 1), None) if coast_way else None
    boundary = boundaries[0] if boundaries else None
    cafe = next(r for w in roads[5:] for r in way_nodes[w][1:-1] if node_use[r] == 1 and r not in tagged_node_ids
                and r != moved_node and r not in building_nodes)
    new_nodes = [max_node + 1, max_node + 2]
    new_way = max_way + 1

    reader = osmium.io.Reader(source)
    header = reader.header()
    reader.close()
    box = header.box()
    out_header = osmium.io.Header()
    if box.valid():
        out_header.add_box(box)
    locations = {}
    written = {"nodes": False, "ways": False}
    with osmium.SimpleWriter(destination, overwrite=True, header=out_header) as writer:
        def flush(kind):
            if kind == "nodes" and not written["nodes"]:
                written["nodes"] = True
                a, b = locations[joined[0]], locations[joined[1]]
                for k, node in enumerate(new_nodes):
                    t = (k + 1) / 3
                    # Off the straight line, so the road is not a copy of another.
                    writer.add_node(osmium.osm.mutable.Node(id=node, version=1, location=(a[0] + (b[0] - a[0]) * t + 0.0004, a[1] + (b[1] - a[1]) * t + 0.0003)))
            if kind == "ways" and not written["ways"]:
                written["ways"] = True
                writer.add_way(osmium.osm.mutable.Way(id=new_way, version=1, nodes=[joined[0]] + new_nodes + [joined[1]],
                                                      tags={"highway": "residential", "name": "Rue des Essais"}))
        for o in osmium.FileProcessor(source):
            if o.is_node():
                if o.id in joined:
                    locations[o.id] = (o.location.lon, o.location.lat)
                if o.id == poi or o.id in building_nodes:
                    continue
                if o.id == moved_node:
                    writer.add_node(o.replace(version=o.version + 1, location=(o.location.lon + 0.0003, o.location.lat + 0.0001)))
                    continue
                if o.id == coast_node:
                    writer.add_node(o.replace(version=o.version + 1, location=(o.location.lon + 0.0002, o.location.lat - 0.0002)))
                    continue
                if o.id == cafe:
                    writer.add_node(o.replace(version=o.version + 1, tags={"amenity": "cafe", "name": "Café des Essais"}))
                    continue
                writer.add_node(o)
            elif o.is_way():
                flush("nodes")
                if o.id == building:
                    continue
                if o.id == renamed:
                    tags = dict(o.tags)
                    tags["name"] = tags["name"] + " Renommée"
                    writer.add_way(o.replace(version=o.version + 1, tags=tags))
                    continue
                if o.id == tuned_road:
                    tags = dict(o.tags)
                    tags["oneway"] = "no" if tags.get("oneway") == "yes" else "yes"
                    tags["maxspeed"] = "20"
                    writer.add_way(o.replace(version=o.version + 1, tags=tags))
                    continue
                writer.add_way(o)
            elif o.is_relation():
                flush("nodes")
                flush("ways")
                if o.id == multipolygon:
                    members = [(m.type, m.ref, m.role) for m in o.members][:-1]
                    writer.add_relation(o.replace(version=o.version + 1, members=members))
                    continue
                if o.id == boundary:
                    tags = dict(o.tags)
                    tags["admin_level"] = "9" if tags["admin_level"] != "9" else "10"
                    writer.add_relation(o.replace(version=o.version + 1, tags=tags))
                    continue
                if o.id == restriction:
                    tags = dict(o.tags)
                    tags["restriction"] = "no_u_turn" if tags["restriction"] != "no_u_turn" else "no_left_turn"
                    writer.add_relation(o.replace(version=o.version + 1, tags=tags))
                    continue
                writer.add_relation(o)
        flush("nodes")
        flush("ways")
    print(json.dumps({"renamed": renamed, "movedNode": moved_node, "movedNodeWay": moving_road, "tunedRoad": tuned_road,
                      "deletedBuilding": building, "deletedBuildingNodes": sorted(building_nodes), "deletedPOI": poi,
                      "newNodes": new_nodes, "newWay": new_way, "joinedNodes": joined,
                      "multipolygon": multipolygon, "restriction": restriction,
                      "coastlineNode": coast_node, "coastlineWay": coast_way, "boundary": boundary, "cafe": cafe}))


if __name__ == "__main__":
    main()
