#!/usr/bin/env python3
"""Generates proto.txt (the protobuf wire layout of every served kind) from the Go API types
of k8s.io/api and k8s.io/apimachinery (git checkouts given as arguments). Field numbers come
from the `protobuf:"..."` struct tags, value types from the Go types (the tags' wire types are
not always right, the Go types are what the generated marshallers follow). The result is
checked against upstream's generated.proto (number, cardinality and type of every field); the
script fails on any disagreement.

Usage: generate-proto.py <k8s.io/api git dir> <k8s.io/apimachinery git dir> > proto.txt

Output, one line per item:
  R <apiVersion> <Kind> <type>         a kind as it is named in a runtime.Unknown envelope
                                        (apiVersion '*': any, for meta/v1 option kinds)
  T <type>                             a message (a Go struct)
  F <num> <json> <GoName> <shape> <value> <flags...>
     shape: one, list, map (value then is key=value)
     value: string bytes bool int uint double float, a special wire form (time microtime
            quantity intstr raw duration fieldsv1) or @<type> for a nested message
     flags: ptr (a Go pointer: in the JSON exactly when on the wire), omit (omitempty),
            inline (the message's fields are the parent's in JSON; json is '.')
"""
import re, subprocess, sys

API, MACH = sys.argv[1], sys.argv[2]
FILES = [(API, p) for p in [
    "core/v1/types.go", "apps/v1/types.go", "batch/v1/types.go", "events/v1/types.go",
    "coordination/v1/types.go", "policy/v1/types.go",
    "resource/v1/types.go", "resource/v1beta1/types.go", "resource/v1beta2/types.go",
    "resource/v1/devicetaint.go", "resource/v1beta1/devicetaint.go",
    "resource/v1beta2/devicetaint.go", "resource/v1alpha3/types.go",
    "scheduling/v1alpha3/types.go"]] + [(MACH, "pkg/apis/meta/v1/types.go")]
PKG_ALIAS = {"metav1": "meta/v1", "v1": "core/v1", "corev1": "core/v1",
             "schedulingv1alpha3": "scheduling/v1alpha3"}
SPECIAL = {"resource.Quantity": "quantity", "apiresource.Quantity": "quantity",
           "intstr.IntOrString": "intstr", "metav1.Time": "time", "Time": "time",
           "metav1.MicroTime": "microtime", "MicroTime": "microtime",
           "metav1.Duration": "duration", "Duration": "duration",
           "runtime.RawExtension": "raw", "metav1.FieldsV1": "fieldsv1", "FieldsV1": "fieldsv1",
           "types.UID": "string"}
GO_PRIM = {"string": "string", "bool": "bool", "int": "int", "int32": "int", "int64": "int",
           "uint": "uint", "uint32": "uint", "uint64": "uint", "float32": "float",
           "float64": "double", "byte": "uint"}

structs = {}   # qualified name -> [field lines]
aliases = {}   # qualified name -> go type string (in its package)


def show(repo, path):
    r = subprocess.run(["git", "-C", repo, "show", "HEAD:" + path], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def parse(pkg, text):
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        ln = lines[i].strip()
        m = re.match(r"^type (\w+) struct \{$", ln)
        if m:
            fields = []
            i += 1
            while i < len(lines) and lines[i].strip() != "}":
                s = lines[i].strip()
                if s and not s.startswith("//"):
                    fields.append(s)
                i += 1
            structs[pkg + "." + m.group(1)] = fields
        else:
            m = re.match(r"^type (\w+) (.+)$", ln)
            if m and not m.group(2).startswith(("struct", "interface", "func", "=")):
                aliases[pkg + "." + m.group(1)] = m.group(2).split("//")[0].strip()
        i += 1


def qualify(pkg, t):
    if "." in t:
        p, n = t.split(".", 1)
        return PKG_ALIAS.get(p, p) + "." + n
    return pkg + "." + t


def value(pkg, t, where):
    """-> value type of a non-collection Go type"""
    if t in SPECIAL:
        return SPECIAL[t]
    if pkg == "meta/v1" and t in SPECIAL:
        return SPECIAL[t]
    if t in GO_PRIM:
        return GO_PRIM[t]
    q = qualify(pkg, t)
    if q in structs:
        return "@" + q
    if q in aliases:
        under = aliases[q]
        if under.startswith(("[]", "map[")):
            sys.exit("unsupported named collection %s at %s" % (q, where))
        return value(q.rsplit(".", 1)[0], under, where)
    sys.exit("unknown type %s at %s" % (t, where))


def shape(pkg, t, where):
    """-> (shape, value, pointer)"""
    ptr = t.startswith("*")
    t = t.lstrip("*")
    if t == "[]byte":
        return "one", "bytes", ptr
    if t.startswith("[]"):
        inner = t[2:].lstrip("*")
        if inner.startswith(("[]", "map[")) and inner != "[]byte":
            sys.exit("unsupported nested collection %s at %s" % (t, where))
        return "list", "bytes" if inner == "[]byte" else value(pkg, inner, where), ptr
    if t.startswith("map["):
        depth = 0
        for j, ch in enumerate(t):
            depth += ch == "["
            if ch == "]":
                depth -= 1
                if depth == 0:
                    break
        key, val = t[4:j], t[j + 1:].lstrip("*")
        if val.startswith(("[]", "map[")) and val != "[]byte":
            sys.exit("unsupported map value %s at %s" % (t, where))
        v = "bytes" if val == "[]byte" else value(pkg, val, where)
        return "map", value(pkg, key, where) + "=" + v, ptr
    q = qualify(pkg, t)
    if t not in SPECIAL and q in aliases and aliases[q].startswith(("[]", "map[")):
        s, v, _ = shape(q.rsplit(".", 1)[0], aliases[q], where)
        return s, v, ptr
    return "one", value(pkg, t, where), ptr


def tag(tags, name):
    m = re.search(name + r':"([^"]*)"', tags)
    return m.group(1) if m else None


def emit(q, out, seen):
    if q in seen:
        return
    seen.add(q)
    pkg = q.rsplit(".", 1)[0]
    rows, nested = [], []
    for line in structs[q]:
        m = re.match(r"^(?:(\w+)\s+)?(\*?[\w.\[\]*]+(?:\[[\w.]+\][\w.*\[\]]+)?)\s*`([^`]*)`", line)
        if not m:
            continue
        goname, gotype, tags = m.group(1), m.group(2), m.group(3)
        pb = tag(tags, "protobuf")
        if not pb or pb == "-":
            continue
        num = pb.split(",")[1]
        js = (tag(tags, "json") or "").split(",")
        embedded = goname is None
        if embedded:
            goname = gotype.lstrip("*").split(".")[-1]
        where = q + "." + goname
        s, v, ptr = shape(pkg, gotype, where)
        flags = []
        if ptr:
            flags.append("ptr")
        if "omitempty" in js[1:]:
            flags.append("omit")
        name = js[0]
        if embedded and name == "":
            flags.append("inline")
            name = "."
        if name in ("", "-"):
            continue
        rows.append("F %s %s %s %s %s %s" % (num, name, goname, s, v, " ".join(flags)))
        for part in v.split("="):
            if part.startswith("@"):
                nested.append(part[1:])
    out.append("T " + q)
    out.extend(r.rstrip() for r in rows)
    for n in nested:
        emit(n, out, seen)


for repo, path in FILES:
    text = show(repo, path)
    if text is None:
        continue
    parse(path.replace("pkg/apis/", "").rsplit("/", 1)[0], text)

GROUPS = {"core/v1": "v1", "apps/v1": "apps/v1", "batch/v1": "batch/v1",
          "events/v1": "events.k8s.io/v1", "coordination/v1": "coordination.k8s.io/v1",
          "policy/v1": "policy/v1", "resource/v1": "resource.k8s.io/v1",
          "resource/v1beta1": "resource.k8s.io/v1beta1",
          "resource/v1beta2": "resource.k8s.io/v1beta2",
          "resource/v1alpha3": "resource.k8s.io/v1alpha3", "meta/v1": "*"}
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
    "resource/v1beta1": ["DeviceClass", "ResourceClaim", "ResourceClaimTemplate",
                         "ResourceSlice"],
    "resource/v1beta2": ["DeviceClass", "ResourceClaim", "ResourceClaimTemplate",
                         "ResourceSlice", "DeviceTaintRule"],
    "resource/v1alpha3": ["DeviceTaintRule"],
    "meta/v1": ["DeleteOptions"],
}
out, seen = [], set()
for pkg, kinds in ROOTS.items():
    for k in kinds:
        q = pkg + "." + k
        if q not in structs:
            print("missing root " + q, file=sys.stderr)
            continue
        out.append("R %s %s %s" % (GROUPS[pkg], k, q))
for pkg, kinds in ROOTS.items():
    for k in kinds:
        if pkg + "." + k in structs:
            emit(pkg + "." + k, out, seen)


SCALAR_PROTO = {"string": ("string",), "bytes": ("bytes",), "bool": ("bool",),
                "int": ("int32", "int64"), "uint": ("uint32", "uint64"), "double": ("double",),
                "float": ("float",)}
SPECIAL_PROTO = {"time": "Time", "microtime": "MicroTime", "quantity": "Quantity",
                 "intstr": "IntOrString", "raw": "RawExtension", "duration": "Duration",
                 "fieldsv1": "FieldsV1"}


def proto_messages(repo, path):
    """message name -> {number: (label, type)} from a generated.proto"""
    text, res, name = show(repo, path) or "", {}, None
    for ln in text.split("\n"):
        m = re.match(r"^message (\w+) \{", ln)
        if m:
            name = m.group(1)
            res[name] = {}
            continue
        m = re.match(r"^\s+(optional|repeated)\s+([\w.]+)\s+\w+\s*=\s*(\d+)", ln)
        if name and m:
            res[name][int(m.group(3))] = (m.group(1), m.group(2).split(".")[-1])
        m = re.match(r"^\s+map<([\w.]+),\s*([\w.]+)>\s+\w+\s*=\s*(\d+)", ln)
        if name and m:
            res[name][int(m.group(3))] = ("map", m.group(2).split(".")[-1])
        if ln.startswith("}"):
            name = None
    return res


def verify(out):
    """Every emitted field must match upstream's generated.proto: number, cardinality, type."""
    protos = {}
    for repo, path in FILES:
        pkg = path.replace("pkg/apis/", "").rsplit("/", 1)[0]
        gen = path.rsplit("/", 1)[0] + "/generated.proto"
        for msg, fields in proto_messages(repo, gen).items():
            protos[pkg + "." + msg] = fields
    errors, current = [], None
    for line in out:
        p = line.split(" ")
        if p[0] == "T":
            current = p[1]
            if current not in protos:
                errors.append("no message %s in generated.proto" % current)
            continue
        if p[0] != "F" or current not in protos:
            continue
        num, shape, value = int(p[1]), p[4], p[5]
        got = protos[current].get(num)
        want_value = value.split("=")[-1]
        if want_value.startswith("@"):
            want = (want_value.split(".")[-1],)
        else:
            want = SCALAR_PROTO.get(want_value) or (SPECIAL_PROTO[want_value],)
        label = {"one": "optional", "list": "repeated", "map": "map"}[shape]
        if got is None or got[0] != label or got[1] not in want:
            errors.append("%s field %d: table %s %s, generated.proto %s" % (
                current, num, shape, value, got))
    if errors:
        sys.exit("proto.txt disagrees with generated.proto:\n" + "\n".join(errors))


verify(out)


def head(repo):
    return subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()


print("# Generated by generate-proto.py from the Go types of k8s.io/api %s"
      " and k8s.io/apimachinery %s." % (head(API), head(MACH)))
print("\n".join(out))
