#!/usr/bin/env python3
"""Generates schema.txt (patch strategies, merge keys, list/map/struct types) from the
Go API types of k8s.io/api and k8s.io/apimachinery (git checkouts given as arguments).

Usage: generate-schema.py <k8s.io/api git dir> <k8s.io/apimachinery git dir> > schema.txt

Output, one line per item:
  T <type> [atomic]                  a struct type (atomic: +structType=atomic)
  F <json> <kind> <elem> <attrs...>  a field of the preceding struct
     kind: S struct, L list, M map, P primitive/untyped; elem: element type or '-'
     attrs: ps=<patchStrategy> mk=<patchMergeKey> lt=<listType> lk=<k1,k2> mt=atomic
            z (present in the Go zero value: a value struct or a field without omitempty)
            t=<scalar> (the scalar of a P field, or of the items/values of an L/M field of
              scalars: string boolean int32 int64 double byte quantity intorstring time
              microtime duration raw fieldsv1 any)
"""
import re, subprocess, sys

API, MACH = sys.argv[1], sys.argv[2]
FILES = [(API, p) for p in [
    "core/v1/types.go", "apps/v1/types.go", "batch/v1/types.go", "events/v1/types.go",
    "coordination/v1/types.go", "policy/v1/types.go",
    "resource/v1/types.go", "resource/v1beta1/types.go", "resource/v1beta2/types.go",
    "resource/v1alpha3/types.go", "scheduling/v1alpha2/types.go"]] + [
    (MACH, "pkg/apis/meta/v1/types.go")]
PKG_ALIAS = {"metav1": "meta/v1", "v1": "core/v1", "corev1": "core/v1"}
PRIMITIVE_EXT = {"resource.Quantity", "intstr.IntOrString", "types.UID", "metav1.Time",
                 "metav1.MicroTime", "metav1.Duration", "Time", "MicroTime", "Duration",
                 "runtime.RawExtension", "metav1.FieldsV1", "FieldsV1", "apiresource.Quantity"}
GO_PRIM = {"string", "bool", "int", "int32", "int64", "uint", "uint32", "uint64", "float32",
           "float64", "byte", "interface{}", "any"}

structs = {}   # qualified name -> (atomic, [fields])
aliases = {}   # qualified name -> go type string (in pkg)

def show(repo, path):
    return subprocess.run(["git", "-C", repo, "show", "HEAD:" + path], check=True,
                          capture_output=True, text=True).stdout

def parse(pkg, text):
    lines = text.split("\n")
    comments = []
    i = 0
    while i < len(lines):
        ln = lines[i].strip()
        m = re.match(r"^type (\w+) struct \{$", ln)
        if m:
            atomic = any(re.match(r"//\s*\+structType=atomic", c) for c in comments)
            fields = []
            fc = []
            i += 1
            depth = 1
            while i < len(lines):
                s = lines[i].strip()
                if s == "}" and depth == 1:
                    break
                if s.startswith("//"):
                    fc.append(s)
                elif s:
                    fields.append((s, fc))
                    fc = []
                i += 1
            structs[pkg + "." + m.group(1)] = (atomic, fields)
            comments = []
        else:
            m = re.match(r"^type (\w+) (.+)$", ln)
            if m and not m.group(2).startswith(("struct", "interface", "func", "=")):
                aliases[pkg + "." + m.group(1)] = m.group(2).split("//")[0].strip()
            if ln.startswith("//"):
                comments.append(ln)
            elif ln == "":
                pass
            else:
                comments = []
        i += 1

def qualify(pkg, t):
    if "." in t:
        p, n = t.split(".", 1)
        return PKG_ALIAS.get(p, p) + "." + n
    return pkg + "." + t

SCALARS = {"string": "string", "bool": "boolean", "int": "int32", "int32": "int32",
           "int64": "int64", "uint": "int64", "uint32": "int64", "uint64": "int64",
           "float32": "double", "float64": "double", "byte": "int32", "interface{}": "any",
           "any": "any", "resource.Quantity": "quantity", "apiresource.Quantity": "quantity",
           "intstr.IntOrString": "intorstring", "types.UID": "string", "metav1.Time": "time",
           "Time": "time", "metav1.MicroTime": "microtime", "MicroTime": "microtime",
           "metav1.Duration": "duration", "Duration": "duration", "runtime.RawExtension": "raw",
           "metav1.FieldsV1": "fieldsv1", "FieldsV1": "fieldsv1"}

def item_scalar(pkg, t):
    """the scalar of list items or map values; nested lists and maps are left untyped"""
    t = t.lstrip("*")
    if t != "[]byte" and t.startswith(("[]", "map[")):
        return "any"
    return scalar(pkg, t)

def scalar(pkg, t):
    """the scalar token of a Go type that resolves to P, or of a list's/map's scalar items"""
    t = t.lstrip("*")
    if t == "[]byte":
        return "byte"
    if t.startswith("[]"):
        return item_scalar(pkg, t[2:])
    if t.startswith("map["):
        depth = 0
        for j, ch in enumerate(t):
            if ch == "[": depth += 1
            if ch == "]":
                depth -= 1
                if depth == 0: break
        return item_scalar(pkg, t[j + 1:])
    if t in SCALARS:
        return SCALARS[t]
    q = qualify(pkg, t)
    if q in aliases:
        return scalar(q.rsplit(".", 1)[0], aliases[q])
    return "any"

def resolve(pkg, t):
    """-> (kind, elem) with elem a qualified struct name or '-'"""
    t = t.lstrip("*")
    if t.startswith("[]"):
        inner = t[2:]
        if inner == "byte":
            return ("P", "-")
        k, e = resolve(pkg, inner)
        return ("L", e if k == "S" else "-") if k != "L" else ("L", "-")
    if t.startswith("map["):
        depth, j = 0, 0
        for j, ch in enumerate(t):
            if ch == "[": depth += 1
            if ch == "]":
                depth -= 1
                if depth == 0: break
        k, e = resolve(pkg, t[j + 1:])
        return ("M", e if k == "S" else "-")
    if t in GO_PRIM or t in PRIMITIVE_EXT or t.startswith("func"):
        return ("P", "-")
    q = qualify(pkg, t)
    if q in structs:
        return ("S", q)
    if q in aliases:
        k, e = resolve(q.rsplit(".", 1)[0], aliases[q])
        if k in ("L", "M"):
            return (k, e)
        return ("P", "-")
    return ("P", "-")

def tag(tags, name):
    m = re.search(name + r':"([^"]*)"', tags)
    return m.group(1) if m else ""

def comment_tag(comments, name):
    out = []
    for c in comments:
        m = re.match(r"//\s*\+" + name + r"=(\S+)\s*$", c)
        if m:
            out.append(m.group(1))
    return out

def emit_struct(q, out, seen):
    if q in seen or q not in structs:
        return
    seen.add(q)
    pkg = q.rsplit(".", 1)[0]
    atomic, fields = structs[q]
    rows = []
    for line, comments in expand(pkg, fields):
        m = re.match(r"^(\w+)\s+([^`]+?)\s*`([^`]*)`", line)
        if not m:
            continue
        gotype, tags = m.group(2), m.group(3)
        js = tag(tags, "json").split(",")[0]
        if not js or js == "-":
            continue
        kind, elem = resolve(pkg, gotype)
        attrs = []
        if elem == "-":
            attrs.append("t=" + scalar(pkg, gotype))
        ps, mk = tag(tags, "patchStrategy"), tag(tags, "patchMergeKey")
        if ps: attrs.append("ps=" + ps)
        if mk: attrs.append("mk=" + mk)
        lt = comment_tag(comments, "listType")
        if lt: attrs.append("lt=" + lt[0])
        lk = comment_tag(comments, "listMapKey")
        if lk: attrs.append("lk=" + ",".join(lk))
        # z: present in the Go zero value once converted to JSON (a value struct, or no omitempty)
        if (kind == "S" and not gotype.startswith("*")) or "omitempty" not in tag(tags, "json"):
            attrs.append("z")
        if comment_tag(comments, "mapType") == ["atomic"] or comment_tag(comments, "structType") == ["atomic"]:
            attrs.append("mt=atomic")
        rows.append((js, kind, elem, attrs))
    out.append("T %s%s" % (q, " atomic" if atomic else ""))
    for js, kind, elem, attrs in rows:
        out.append(("F %s %s %s %s" % (js, kind, elem, " ".join(attrs))).rstrip())
    for js, kind, elem, attrs in rows:
        if elem != "-":
            emit_struct(elem, out, seen)

def expand(pkg, fields):
    """inline embedded structs (json:",inline" or untagged embedding)"""
    for line, comments in fields:
        m = re.match(r"^\*?([\w.]+)\s*(`[^`]*`)?\s*$", line)
        if m:
            js = tag(m.group(2) or "", "json")
            if js.startswith(",inline") or js == "" or js.startswith(","):
                q = qualify(pkg, m.group(1))
                if q in structs:
                    yield from expand(q.rsplit(".", 1)[0], structs[q][1])
                continue
            # embedded with a json name (metav1.ObjectMeta `json:"metadata"`): a plain field
            yield "%s %s %s" % (m.group(1).split(".")[-1], m.group(1), m.group(2)), comments
            continue
        yield line, comments

for repo, path in FILES:
    pkg = path.replace("pkg/apis/", "").rsplit("/", 1)[0]
    parse(pkg, show(repo, path))
    if path.startswith("resource/"):
        try:
            parse(pkg, show(repo, path.replace("types.go", "devicetaint.go")))
        except subprocess.CalledProcessError:
            pass
    if path == "core/v1/types.go":
        for extra in ["taint.go", "toleration.go", "objectreference.go", "resource.go"]:
            pass  # methods only

ROOTS = {
    "core/v1": ["Pod", "Node", "Namespace", "Event", "ConfigMap", "Secret", "ServiceAccount",
                "Binding", "Service", "Endpoints", "PersistentVolumeClaim"],
    "apps/v1": ["Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"],
    "batch/v1": ["Job", "CronJob"],
    "events/v1": ["Event"],
    "coordination/v1": ["Lease"],
    "policy/v1": ["Eviction", "PodDisruptionBudget"],
    # Kubernetes 1.36 serves DeviceTaintRule as v1beta2 and v1alpha3 only (v1 comes in 1.37).
    "resource/v1": ["DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"],
    "resource/v1beta1": ["DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"],
    "resource/v1beta2": ["DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceTaintRule"],
    "resource/v1alpha3": ["DeviceTaintRule"],
    # Served with the GenericWorkload gate (the podgroup demo's PodGroup).
    "scheduling/v1alpha2": ["PodGroup", "Workload"],
}
out, seen = [], set()
for pkg, kinds in ROOTS.items():
    for k in kinds:
        q = pkg + "." + k
        if q in structs:
            out.append("R " + q)
            emit_struct(q, out, seen)
        else:
            print("missing root " + q, file=sys.stderr)
def head(repo):
    return subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
print("# Generated by generate-schema.py from the Go types of k8s.io/api %s"
      " and k8s.io/apimachinery %s." % (head(API), head(MACH)))
print("\n".join(out))
