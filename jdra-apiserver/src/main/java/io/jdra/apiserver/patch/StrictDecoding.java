package io.jdra.apiserver.patch;

import io.jdra.api.validation.GoFormat;
import io.jdra.apiserver.patch.Schema.Field;
import io.jdra.apiserver.patch.Schema.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The strict decoding errors kube-apiserver reports for {@code fieldValidation=Strict/Warn}, worded
 * and ordered as {@code sigs.k8s.io/json}'s strict mode ({@code unknown field "spec.foo"}, {@code
 * duplicate field "metadata.name"}), goyaml's duplicate keys ({@code line 3: key "a" already set in
 * map}) and the unstructured converter used after strategic merge patches; plus the pruning of
 * unknown fields that decoding into Go structs does silently. Paths are spelled as Go's decoder
 * spells them: struct fields and map keys joined by dots, list items as {@code [i]}. Values with
 * their own Go decoder (quantities, times, raw extensions such as opaque driver parameters) are not
 * looked into, as upstream. Kinds the field table does not describe have no unknown fields.
 * Stateless and thread-safe.
 */
public final class StrictDecoding {
  /** Upstream stops collecting strict errors after this many. */
  private static final int MAX_ERRORS = 100;

  private StrictDecoding() {}

  /** What a JSON value decodes into, as far as strictness goes. */
  private sealed interface Node permits StructNode, MapNode, ListNode, Simple {}

  private record StructNode(Type type) implements Node {}

  private record MapNode(Field value) implements Node {}

  private record ListNode(Field element) implements Node {}

  private enum Simple implements Node {
    /** interface{}: any JSON, duplicates still count. */
    ANY,
    /** A scalar or a type with its own decoder: not looked into. */
    OPAQUE,
    /** An operation of a JSON patch (op, path, from, value). */
    PATCH_OP,
    /** A JSON patch: a list of operations. */
    PATCH
  }

  private static final Set<String> PATCH_OP_FIELDS = Set.of("op", "path", "from", "value");

  private static Node node(Field f) {
    return switch (f.kind()) {
      case STRUCT -> {
        Type t = Schema.type(f.elem());
        yield t.isStruct() ? new StructNode(t) : Simple.ANY;
      }
      case MAP -> new MapNode(f.elementField());
      case LIST -> new ListNode(f.elementField());
      default -> Simple.OPAQUE;
    };
  }

  private static Node root(String apiVersion, String kind) {
    return Schema.known(apiVersion, kind)
        ? new StructNode(Schema.forKind(apiVersion, kind))
        : Simple.ANY;
  }

  // ------------------------------------------------------------------ JSON bytes

  /**
   * Unknown and duplicate fields of a JSON object of the kind, in the order Go's strict decoder
   * meets them. Malformed JSON yields the errors found before the syntax error.
   */
  public static List<String> jsonErrors(String apiVersion, String kind, byte[] json) {
    return scan(json, root(apiVersion, kind));
  }

  /** Duplicate fields of a JSON document decoded into {@code map[string]interface{}}. */
  public static List<String> untypedJsonErrors(byte[] json) {
    return scan(json, Simple.ANY);
  }

  /**
   * Unknown and duplicate fields of a JSON patch's operations, e.g. {@code unknown field "[0].x"}.
   */
  public static List<String> jsonPatchErrors(byte[] json) {
    return scan(json, Simple.PATCH);
  }

  private static List<String> scan(byte[] json, Node root) {
    Errors out = new Errors();
    try (JsonParser p = Json.MAPPER.createParser(json)) {
      if (p.nextToken() != null) {
        new Scanner(p, out).value(root);
      }
    } catch (JacksonException e) {
      // Syntax errors are reported by the body parser; keep what was found.
    }
    return out.list();
  }

  /** Collected errors: deduplicated, at most {@link #MAX_ERRORS}. */
  private static final class Errors {
    private final Set<String> seen = new LinkedHashSet<>();

    void add(String type, List<String> stack, String field) {
      if (seen.size() >= MAX_ERRORS) {
        return;
      }
      String path = stack.isEmpty() ? field : String.join("", stack) + "." + field;
      seen.add(type + " " + GoFormat.quote(path));
    }

    List<String> list() {
      return List.copyOf(seen);
    }
  }

  /** One pass over a JSON token stream, with the path stack Go's decoder keeps. */
  private record Scanner(JsonParser p, Errors out, List<String> stack) {
    Scanner(JsonParser p, Errors out) {
      this(p, out, new ArrayList<>());
    }

    /** Consumes the value at the current token. */
    void value(Node n) {
      JsonToken t = p.currentToken();
      if (t == JsonToken.START_OBJECT) {
        object(n);
      } else if (t == JsonToken.START_ARRAY) {
        array(n);
      }
    }

    private void object(Node n) {
      if (n instanceof ListNode || n == Simple.OPAQUE || n == Simple.PATCH) {
        p.skipChildren();
        return;
      }
      Set<String> keys = new HashSet<>();
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        String key = p.currentName();
        p.nextToken();
        Node child = child(n, key);
        if (child == null) {
          out.add("unknown field", stack, key);
          p.skipChildren();
          continue;
        }
        if (!keys.add(key)) {
          out.add("duplicate field", stack, key);
        }
        push(stack.isEmpty() ? key : "." + key);
        value(child);
        pop();
      }
    }

    private void array(Node n) {
      // instanceof tests rather than a pattern switch, whose type switch is a bootstrap call
      // under C1 (the compiler of jdra bench)
      Node element;
      if (n instanceof ListNode l) {
        element = node(l.element());
      } else if (n == Simple.ANY) {
        element = Simple.ANY;
      } else if (n == Simple.PATCH) {
        element = Simple.PATCH_OP;
      } else {
        element = null;
      }
      if (element == null) {
        p.skipChildren();
        return;
      }
      int i = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        push("[" + i++ + "]");
        value(element);
        pop();
      }
    }

    private void push(String s) {
      stack.add(s);
    }

    private void pop() {
      stack.remove(stack.size() - 1);
    }
  }

  /** What the value under key decodes into; null when an object of n has no such field. */
  private static Node child(Node n, String key) {
    // instanceof tests rather than a pattern switch (see Scanner.array): this runs for every key
    // of every create and update body
    if (n instanceof StructNode s) {
      return s.type().declares(key) ? node(s.type().field(key)) : null;
    }
    if (n instanceof MapNode m) {
      return node(m.value());
    }
    if (n == Simple.PATCH_OP) {
      return PATCH_OP_FIELDS.contains(key)
          ? (key.equals("value") ? Simple.ANY : Simple.OPAQUE)
          : null;
    }
    return Simple.ANY;
  }

  // ------------------------------------------------------------------ trees

  /**
   * Unknown fields of an already decoded object, as errors. {@code sortedKeys}: visit object keys
   * in sorted order, as upstream does for documents it re-encoded from Go maps (YAML bodies
   * converted to JSON, merge and JSON patch results); else in document order.
   */
  public static List<String> unknownFields(
      String apiVersion, String kind, JsonNode obj, boolean sortedKeys) {
    Objects.requireNonNull(obj, "obj");
    Errors out = new Errors();
    unknown(obj, root(apiVersion, kind), new ArrayList<Object>(), out, sortedKeys);
    return out.list();
  }

  /**
   * Unknown fields of a strategic-merge-patched object as the unstructured converter reports them:
   * sorted by message.
   */
  public static List<String> convertedUnknownFields(String apiVersion, String kind, JsonNode obj) {
    List<String> errors = new ArrayList<>(unknownFields(apiVersion, kind, obj, true));
    Collections.sort(errors);
    return errors;
  }

  /**
   * The walk keeps the path as raw steps (a key, or an Integer list index) and spells it as Go does
   * only for an error: this runs on every create and update body.
   */
  private static void unknown(
      JsonNode v, Node n, List<Object> stack, Errors out, boolean sortedKeys) {
    if (v.isObject() && !(n instanceof ListNode) && n != Simple.OPAQUE) {
      if (sortedKeys) {
        List<String> keys = new ArrayList<>(v.propertyNames());
        Collections.sort(keys);
        for (String key : keys) {
          unknownField(key, v.get(key), n, stack, out, true);
        }
      } else {
        for (Map.Entry<String, JsonNode> e : v.properties()) {
          unknownField(e.getKey(), e.getValue(), n, stack, out, false);
        }
      }
    } else if (v.isArray() && (n instanceof ListNode || n == Simple.ANY)) {
      Node element = n instanceof ListNode l ? node(l.element()) : Simple.ANY;
      for (int i = 0; i < v.size(); i++) {
        stack.add(i);
        unknown(v.get(i), element, stack, out, sortedKeys);
        stack.remove(stack.size() - 1);
      }
    }
  }

  private static void unknownField(
      String key, JsonNode value, Node n, List<Object> stack, Errors out, boolean sortedKeys) {
    Node child = child(n, key);
    if (child == null) {
      out.add("unknown field", spelled(stack), key);
      return;
    }
    stack.add(key);
    unknown(value, child, stack, out, sortedKeys);
    stack.remove(stack.size() - 1);
  }

  /** Raw path steps as the Scanner keeps them: {@code spec}, {@code .containers}, {@code [0]}. */
  private static List<String> spelled(List<Object> steps) {
    List<String> out = new ArrayList<>(steps.size());
    for (Object step : steps) {
      if (step instanceof Integer i) {
        out.add("[" + i + "]");
      } else {
        out.add(out.isEmpty() ? (String) step : "." + step);
      }
    }
    return out;
  }

  /** Removes the fields the kind does not declare, as decoding into the Go type drops them. */
  public static void prune(String apiVersion, String kind, ObjectNode obj) {
    Objects.requireNonNull(obj, "obj");
    prune(obj, root(apiVersion, kind));
  }

  private static void prune(JsonNode v, Node n) {
    if (v.isObject() && !(n instanceof ListNode) && n != Simple.OPAQUE && n != Simple.ANY) {
      var it = ((ObjectNode) v).properties().iterator();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        Node child = child(n, e.getKey());
        if (child == null) {
          it.remove();
        } else {
          prune(e.getValue(), child);
        }
      }
    } else if (v.isArray() && n instanceof ListNode l) {
      Node element = node(l.element());
      for (JsonNode item : v) {
        prune(item, element);
      }
    }
  }

  // ------------------------------------------------------------------ YAML

  /**
   * Duplicate keys of a YAML document as goyaml's strict decoding lists them ({@code line 4: key
   * "a" already set in map}, the line of the repeated key's value), inner ones first; empty when
   * none or when the YAML does not parse.
   */
  public static List<String> yamlDuplicates(byte[] yaml) {
    if (jsonWithoutDuplicates(yaml)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    try (JsonParser p = Json.YAML.createParser(yaml)) {
      if (p.nextToken() != null) {
        yamlValue(p, out);
      }
    } catch (JacksonException e) {
      // Syntax errors are reported by the body parser.
    }
    return out;
  }

  /**
   * Whether the document is a JSON object that parses and repeats no key, read with the JSON
   * parser: clients send apply bodies as JSON (a YAML subset whose keys are the same strings in
   * both readings), and the YAML parser costs several times more. Anything else (not JSON, a syntax
   * error, a key given twice) goes to the YAML scan, which words the errors.
   */
  private static boolean jsonWithoutDuplicates(byte[] doc) {
    int i = 0;
    while (i < doc.length
        && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' || doc[i] == '\r')) {
      i++;
    }
    if (i == doc.length || doc[i] != '{') {
      return false;
    }
    try (JsonParser p = DUPLICATES_REJECTED.createParser(doc)) {
      p.nextToken();
      p.skipChildren(); // reads every key: STRICT_DUPLICATE_DETECTION throws on a repeated one
      return p.nextToken() == null; // one document, nothing after it
    } catch (JacksonException e) {
      return false;
    }
  }

  private static final tools.jackson.databind.ObjectReader DUPLICATES_REJECTED =
      Json.MAPPER.reader().with(tools.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION);

  private static void yamlValue(JsonParser p, List<String> out) {
    JsonToken t = p.currentToken();
    if (t == JsonToken.START_OBJECT) {
      Set<String> keys = new HashSet<>();
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        String key = p.currentName();
        p.nextToken();
        int line = p.currentTokenLocation().getLineNr();
        yamlValue(p, out);
        if (!keys.add(key)) {
          out.add("line " + line + ": key " + GoFormat.quote(key) + " already set in map");
        }
      }
    } else if (t == JsonToken.START_ARRAY) {
      while (p.nextToken() != JsonToken.END_ARRAY) {
        yamlValue(p, out);
      }
    }
  }

  /** goyaml's error for duplicate keys: {@code yaml: unmarshal errors:\n line 3: ...}. */
  public static String yamlError(List<String> duplicates) {
    return "yaml: unmarshal errors:\n  " + String.join("\n  ", duplicates);
  }

  // ------------------------------------------------------------------ formatting

  /** Go's {@code fmt %+v} of a value decoded into {@code map[string]interface{}}. */
  public static String goValue(JsonNode n) {
    return Json.goValue(n);
  }
}
