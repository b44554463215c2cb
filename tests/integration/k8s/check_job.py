#!/usr/bin/python3
"""Check Kubernetes manifests offline against the API's own models.

check_job.py [--expect-fault] FILE...: every document of each FILE (YAML) is walked strictly
against python3-kubernetes' models (kubernetes.client.V1Job and all it
holds, through attribute_map and openapi_types): a field the API does not
have, or a value of the wrong type, fails, not only bad YAML. Then each is
built through the client's deserializer, which checks required fields.
Prints one line per document, FAULT and the path of a file's first fault;
exit 1 when a file has a fault (with --expect-fault: when one has none).
"""
import sys

import yaml
from kubernetes import client

PRIMITIVE = {"str": str, "int": int, "bool": bool, "float": (int, float)}


def walk(obj, typ, path):
    if typ.startswith("list["):
        if not isinstance(obj, list):
            raise ValueError("%s: expected a list of %s, got %r" % (path, typ[5:-1], obj))
        for i, e in enumerate(obj):
            walk(e, typ[5:-1], "%s[%d]" % (path, i))
    elif typ.startswith("dict("):
        inner = typ[typ.index(",") + 1:-1].strip()
        if not isinstance(obj, dict):
            raise ValueError("%s: expected a map, got %r" % (path, obj))
        for k, v in obj.items():
            if not isinstance(k, str):
                raise ValueError("%s: key %r is not a string" % (path, k))
            walk(v, inner, "%s.%s" % (path, k))
    elif typ in PRIMITIVE:
        # YAML's true is no int, and 4 is no string.
        if isinstance(obj, bool) != (typ == "bool") or not isinstance(obj, PRIMITIVE[typ]):
            raise ValueError("%s: expected %s, got %r" % (path, typ, obj))
    elif typ in ("object", "datetime", "date"):
        pass
    else:
        cls = getattr(client, typ)
        if not isinstance(obj, dict):
            raise ValueError("%s: expected a %s object, got %r" % (path, typ, obj))
        fields = {json_name: attr for attr, json_name in cls.attribute_map.items()}
        for k, v in obj.items():
            if k not in fields:
                raise ValueError("%s.%s: not a field of %s" % (path, k, typ))
            walk(v, cls.openapi_types[fields[k]], "%s.%s" % (path, k))


def check(path, api):
    """None when every document of @path is a valid Job or Pod, else the fault."""
    docs = [d for d in yaml.safe_load_all(open(path)) if d is not None]
    if not docs:
        return "%s: no document" % path
    for i, d in enumerate(docs):
        kind = d.get("kind") if isinstance(d, dict) else None
        typ = {"Job": "V1Job", "Pod": "V1Pod"}.get(kind)
        try:
            if not typ:
                raise ValueError("document %d: kind %r is not Job or Pod" % (i, kind))
            walk(d, typ, kind)
            # Required fields (name of a container, ...), as the client checks them.
            api._ApiClient__deserialize(d, typ)
        except (ValueError, TypeError, AttributeError) as e:
            return "%s: %s" % (path, e)
        print("ok: %s: %s %s" % (path, kind, d["metadata"]["name"]))
    return None


def main():
    expect_fault = sys.argv[1] == "--expect-fault"
    api = client.ApiClient()
    rc = 0
    for path in sys.argv[1 + expect_fault:]:
        fault = check(path, api)
        if fault:
            print("FAULT: %s" % fault)
        if bool(fault) != expect_fault:
            print("%s: %s" % (path, "no fault found" if expect_fault else "invalid"))
            rc = 1
    return rc


sys.exit(main())
