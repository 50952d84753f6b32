package io.jdra.apiserver;

import io.jdra.apiserver.meta.Json;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Makes malformed requests from valid objects for {@link MalformedRequestFuzzTest}: mutated bodies
 * for creates, updates and apply, random patches of every type, and random query strings. Not
 * thread-safe (one per worker, each with its own seeded random).
 */
final class FuzzRequests {
  /** A request to send as is. */
  record Request(String method, String target, String contentType, byte[] body) {
    @Override
    public String toString() {
      String b = body == null ? "" : new String(body, StandardCharsets.UTF_8);
      return method
          + " "
          + target
          + " ("
          + contentType
          + ") "
          + MalformedRequestFuzzTest.abbreviate(b);
    }
  }

  private static final String[] TOKENS = {
    "null",
    "1e400",
    "-1",
    "0.5",
    "99999999999999999999999",
    "\"x\"",
    "[]",
    "{}",
    "true",
    "\"\"",
    "{\"$patch\":\"replace\"}",
    "{\"$patch\":\"delete\"}",
    "\"\\ud800\"",
    "\"\\u0000\"",
    ",",
    ":",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    "\"metadata\":{}",
    "NaN",
    "-0",
    "1e-400",
    "\u00e9",
    "\uffff"
  };

  private static final String[] PATHS = {
    "",
    "/",
    "/metadata",
    "/metadata/name",
    "/metadata/labels",
    "/metadata/labels/a",
    "/metadata/labels/~1x",
    "/metadata/resourceVersion",
    "/metadata/finalizers/-",
    "/metadata/ownerReferences",
    "/data",
    "/data/k",
    "/spec",
    "/spec/containers/0",
    "/spec/containers/-",
    "/spec/containers/0/ports/0/containerPort",
    "/spec/replicas",
    "/spec/devices/requests/0/exactly/count",
    "/spec/devices/requests/0/exactly/selectors/0",
    "/spec/selectors/0/cel/expression",
    "/status",
    "/a/b/c",
    "/~2",
    "metadata",
    "/-",
    "/0",
    "/spec/template/spec/containers/0/image",
    "/kind",
    "/apiVersion"
  };

  private static final String[] OPS = {
    "add", "remove", "replace", "move", "copy", "test", "junk", "", "ADD"
  };

  private static final String[] PATCH_TYPES = {
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/strategic-merge-patch+json",
    "application/apply-patch+yaml",
    "application/apply-patch+cbor",
    "text/plain"
  };

  private static final String[] PARAMS = {
    "labelSelector",
    "fieldSelector",
    "limit",
    "continue",
    "resourceVersion",
    "resourceVersionMatch",
    "timeoutSeconds",
    "fieldManager",
    "fieldValidation",
    "dryRun",
    "force",
    "pretty",
    "propagationPolicy",
    "gracePeriodSeconds",
    "sendInitialEvents",
    "allowWatchBookmarks",
    "orphanDependents",
    "includeObject",
    "junk",
    ""
  };

  // No resourceVersion the server has not reached: a read waits for it (3 s, then 504 as upstream).
  private static final String[] VALUES = {
    "",
    "a=b",
    "a in (x,y)",
    "!a",
    "a!=",
    "=",
    "==",
    "a notin ()",
    "a,b,,c",
    "metadata.name=fz",
    "spec.nodeName==x",
    "status.phase!=Running",
    "nope=1",
    "-1",
    "0",
    "1",
    "2",
    "99999999999999999999",
    "abc",
    "NotOlderThan",
    "Exact",
    "All",
    "Strict",
    "Warn",
    "Ignore",
    "true",
    "false",
    "Background",
    "Foreground",
    "Orphan",
    "Object",
    "x".repeat(70),
    "\u00e9",
    "a=" + "b".repeat(64),
    "(",
    ")",
    "!",
    "in",
    "a in (",
    "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ"
  };

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Random random;

  FuzzRequests(Random random) {
    this.random = random;
  }

  /** A malformed request aimed at {@code t}. */
  Request next(MalformedRequestFuzzTest.Target t) {
    String object = t.collection() + "/fz";
    return switch (random.nextInt(7)) {
      case 0 -> new Request("POST", t.collection() + query(), bodyType(), mutated(t.valid()));
      case 1 -> new Request("PUT", object + query(), bodyType(), mutated(t.valid()));
      case 2 -> patch(object, t.valid());
      case 3 -> new Request("GET", t.collection() + query(), null, null);
      case 4 -> new Request("GET", object + query(), null, null);
      case 5 ->
          new Request(
              "DELETE",
              t.collection() + "/fz-" + random.nextInt(3) + query(),
              bodyType(),
              deleteOptions());
      default ->
          new Request(
              pick(new String[] {"POST", "PATCH", "PUT"}),
              object + "/status" + query(),
              pick(PATCH_TYPES),
              mutated(t.valid()));
    };
  }

  private Request patch(String object, String valid) {
    String type = pick(PATCH_TYPES);
    String body =
        switch (type) {
          case "application/json-patch+json" -> jsonPatch();
          case "application/apply-patch+yaml" -> random.nextBoolean() ? valid : mutatedText(valid);
          default -> random.nextBoolean() ? mergePatch() : mutatedText(valid);
        };
    String q =
        type.startsWith("application/apply") && random.nextInt(3) > 0
            ? "?fieldManager=fz" + query().replace('?', '&')
            : query();
    return new Request("PATCH", object + q, type, body.getBytes(StandardCharsets.UTF_8));
  }

  private String bodyType() {
    return switch (random.nextInt(8)) {
      case 0 -> "application/yaml";
      case 1 -> "application/vnd.kubernetes.protobuf";
      case 2 -> "text/plain";
      case 3 -> null;
      default -> "application/json";
    };
  }

  /** A JSON patch of a few random operations. */
  private String jsonPatch() {
    ArrayNode ops = Json.MAPPER.createArrayNode();
    int n = 1 + random.nextInt(5);
    for (int i = 0; i < n; i++) {
      ObjectNode op = ops.addObject();
      if (random.nextInt(10) > 0) {
        op.put("op", pick(OPS));
      }
      if (random.nextInt(10) > 0) {
        op.put("path", pick(PATHS));
      }
      if (random.nextBoolean()) {
        op.put("from", pick(PATHS));
      }
      if (random.nextInt(4) > 0) {
        op.set("value", value(3));
      }
    }
    String text =
        new String(Json.bytes(random.nextInt(10) == 0 ? value(2) : ops), StandardCharsets.UTF_8);
    return random.nextInt(4) == 0 ? mutatedText(text) : text;
  }

  /** A merge or strategic patch: random fields, values and directives at random depths. */
  private String mergePatch() {
    ObjectNode patch = Json.object();
    ObjectNode at = patch;
    for (String part : pick(PATHS).split("/")) {
      if (!part.isEmpty() && random.nextBoolean()) {
        at = at.putObject(part);
      }
    }
    switch (random.nextInt(6)) {
      case 0 -> at.put("$patch", pick(new String[] {"replace", "delete", "merge", "junk"}));
      case 1 -> at.set("$retainKeys", value(1));
      case 2 -> at.set("$setElementOrder/containers", value(2));
      case 3 -> at.set("$deleteFromPrimitiveList/finalizers", value(1));
      default -> {}
    }
    at.set(
        pick(new String[] {"a", "k", "name", "containers", "labels", "spec", "metadata"}),
        value(3));
    return new String(Json.bytes(patch), StandardCharsets.UTF_8);
  }

  private byte[] deleteOptions() {
    if (random.nextBoolean()) {
      return null;
    }
    ObjectNode o = Json.object();
    o.put("kind", "DeleteOptions");
    o.put("apiVersion", "v1");
    o.set(
        pick(
            new String[] {
              "gracePeriodSeconds",
              "propagationPolicy",
              "preconditions",
              "dryRun",
              "orphanDependents"
            }),
        value(2));
    return mutatedText(new String(Json.bytes(o), StandardCharsets.UTF_8))
        .getBytes(StandardCharsets.UTF_8);
  }

  private byte[] mutated(String valid) {
    return mutatedText(valid).getBytes(StandardCharsets.UTF_8);
  }

  /** One to three mutations of the text or of a value in its tree. */
  String mutatedText(String valid) {
    String s = valid;
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      s =
          switch (random.nextInt(6)) {
            case 0 -> flip(s);
            case 1 -> s.substring(0, random.nextInt(s.length() + 1));
            case 2 -> insert(s, pick(TOKENS));
            case 3 -> insert(s, deep());
            default -> retyped(s);
          };
    }
    return s;
  }

  private String flip(String s) {
    if (s.isEmpty()) {
      return s;
    }
    int at = random.nextInt(s.length());
    char c = "{}[]\":,\\0aZ-.eE \u0000\ud800".charAt(random.nextInt(17));
    return s.substring(0, at) + c + s.substring(at + 1);
  }

  private String insert(String s, String token) {
    int at = random.nextInt(s.length() + 1);
    return s.substring(0, at) + token + s.substring(at);
  }

  private String deep() {
    int depth = 100 + random.nextInt(5000);
    String open = random.nextBoolean() ? "[" : "{\"a\":";
    String close = open.equals("[") ? "]" : "}";
    return open.repeat(depth) + (random.nextBoolean() ? "1" + close.repeat(depth) : "");
  }

  /** Parses {@code s} (when it still parses) and puts a value of another type somewhere in it. */
  private String retyped(String s) {
    JsonNode tree;
    try {
      tree = Json.MAPPER.readTree(s);
    } catch (RuntimeException e) {
      return s;
    }
    List<ObjectNode> objects = new ArrayList<>();
    collect(tree, objects);
    if (objects.isEmpty()) {
      return s;
    }
    ObjectNode o = objects.get(random.nextInt(objects.size()));
    List<String> names = new ArrayList<>(o.propertyNames());
    String name =
        names.isEmpty() || random.nextInt(5) == 0
            ? "extra"
            : names.get(random.nextInt(names.size()));
    o.set(name, value(3));
    return new String(Json.bytes(tree), StandardCharsets.UTF_8);
  }

  private static void collect(JsonNode n, List<ObjectNode> into) {
    if (n instanceof ObjectNode o) {
      into.add(o);
    }
    for (JsonNode child : n) {
      collect(child, into);
    }
  }

  /** A random JSON value, nested at most {@code depth} deep. */
  JsonNode value(int depth) {
    int kind = random.nextInt(depth > 0 ? 11 : 8);
    return switch (kind) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.booleanNode(random.nextBoolean());
      case 2 -> NODES.numberNode(random.nextInt(2001) - 1000);
      case 3 -> NODES.numberNode(new java.math.BigDecimal("1e" + (random.nextInt(800) - 400)));
      case 4 -> NODES.numberNode(new java.math.BigInteger("9".repeat(1 + random.nextInt(40))));
      case 5 -> NODES.stringNode(pick(VALUES));
      case 6 -> NODES.stringNode("x".repeat(random.nextInt(3) == 0 ? 70_000 : 3));
      case 7 -> NODES.stringNode(pick(TOKENS));
      case 8 -> {
        ArrayNode a = Json.MAPPER.createArrayNode();
        for (int i = random.nextInt(4); i > 0; i--) {
          a.add(value(depth - 1));
        }
        yield a;
      }
      default -> {
        ObjectNode o = Json.object();
        for (int i = random.nextInt(4); i > 0; i--) {
          o.set(
              pick(
                  new String[] {
                    "name",
                    "a",
                    "$patch",
                    "key",
                    "value",
                    "cel",
                    "expression",
                    "containerPort",
                    "metadata"
                  }),
              value(depth - 1));
        }
        yield o;
      }
    };
  }

  /** A query string of up to four random parameters, sometimes with raw bad escapes. */
  private String query() {
    int n = random.nextInt(5);
    if (n == 0) {
      return "";
    }
    StringBuilder q = new StringBuilder("?");
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        q.append('&');
      }
      q.append(pick(PARAMS)).append('=');
      String v = pick(VALUES);
      switch (random.nextInt(6)) {
        case 0 -> q.append(pick(new String[] {"%zz", "%", "%0", "%00", "%ff%fe", "%C0%AF"}));
        case 1 -> q.append(v.replace(' ', '+'));
        default -> q.append(URLEncoder.encode(v, StandardCharsets.UTF_8));
      }
    }
    return q.toString();
  }

  private <T> T pick(T[] from) {
    return from[random.nextInt(from.length)];
  }
}
