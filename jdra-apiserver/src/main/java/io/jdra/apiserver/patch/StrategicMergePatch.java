package io.jdra.apiserver.patch;

import io.jdra.apiserver.patch.Schema.Field;
import io.jdra.apiserver.patch.Schema.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Strategic merge patch with the semantics of k8s.io/apimachinery strategicpatch as kube-apiserver
 * applies it (parallel delete lists merged, unmatched nulls ignored): per-field patch strategies
 * and merge keys from {@link Schema}, the directives {@code $patch}, {@code $retainKeys}, {@code
 * $deleteFromPrimitiveList/<field>} and {@code $setElementOrder/<field>}, and upstream's ordering
 * of merged lists.
 */
final class StrategicMergePatch {
  static final String DIRECTIVE = "$patch";
  static final String RETAIN_KEYS = "$retainKeys";
  static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList";
  static final String SET_ELEMENT_ORDER = "$setElementOrder";

  static final String BAD_PRIMITIVE_LIST = "invalid patch format of primitive list";
  static final String BAD_RETAIN_KEYS = "invalid patch format of retainKeys";
  static final String BAD_SET_ELEMENT_ORDER = "invalid patch format of setElementOrder list";
  static final String NO_LIST_OF_LISTS = "lists of lists are not supported";

  private StrategicMergePatch() {}

  /** An error of the merge, with upstream's message. */
  static final class SmpException extends Exception {
    private static final long serialVersionUID = 1L;

    SmpException(String message) {
      super(message);
    }
  }

  static ObjectNode apply(String apiVersion, String kind, ObjectNode current, JsonNode patch)
      throws PatchException {
    if (!Schema.known(apiVersion, kind)) {
      throw PatchException.unsupportedMediaType(
          "the body of the request was in an unknown format - accepted media types include:"
              + " application/json-patch+json, application/merge-patch+json,"
              + " application/apply-patch+yaml");
    }
    if (!patch.isObject()) {
      throw PatchException.badRequest(
          "json: cannot unmarshal "
              + JsonPatch.goJsonKind(patch)
              + " into Go value of type map[string]interface {}");
    }
    try {
      return mergeMap(
          current.deepCopy(), (ObjectNode) patch.deepCopy(), Schema.forKind(apiVersion, kind));
    } catch (SmpException e) {
      throw interpret(e.getMessage());
    }
  }

  /** As upstream's interpretStrategicMergePatchError; other errors are 400, not 500. */
  private static PatchException interpret(String message) {
    return switch (message) {
      case NO_LIST_OF_LISTS -> PatchException.unprocessable(message);
      default -> PatchException.badRequest(message);
    };
  }

  static ObjectNode mergeMap(ObjectNode original, ObjectNode patch, Type schema)
      throws SmpException {
    if (patch.has(DIRECTIVE)) {
      return directiveInMap(patch.get(DIRECTIVE), patch);
    }
    if (original == null) {
      original = Json.object();
    }
    applyRetainKeys(original, patch);
    mergeSetElementOrder(original, patch, schema);
    for (String key : new ArrayList<>(patch.propertyNames())) {
      JsonNode patchV = patch.get(key);
      boolean deleteList = false;
      String k = key;
      if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
        k = extractKey(key, DELETE_FROM_PRIMITIVE_LIST);
        deleteList = true;
      }
      if (patchV.isNull()) {
        original.remove(k);
        continue;
      }
      JsonNode origV = original.get(k);
      if (origV == null || !goType(origV).equals(goType(patchV))) {
        if (!deleteList) {
          setNew(original, k, patchV);
        }
        continue;
      }
      Field field = schema.field(k);
      if (origV.isObject()) {
        if ("replace".equals(field.patchStrategy())) {
          original.set(k, clean(patchV));
        } else {
          original.set(k, mergeMap((ObjectNode) origV, (ObjectNode) patchV, field.objectType()));
        }
      } else if (origV.isArray()) {
        original.set(
            k, mergeSliceHandler((ArrayNode) origV, (ArrayNode) patchV, field, deleteList));
      } else {
        setNew(original, k, patchV);
      }
    }
    return original;
  }

  private static ObjectNode directiveInMap(JsonNode directive, ObjectNode patch)
      throws SmpException {
    if (directive.isString() && "replace".equals(directive.stringValue())) {
      patch.remove(DIRECTIVE);
      return (ObjectNode) clean(patch);
    }
    if (directive.isString() && "delete".equals(directive.stringValue())) {
      return Json.object();
    }
    throw new SmpException(
        "unknown patch type: " + goString(directive) + " in map: " + Json.goValue(patch));
  }

  private static void applyRetainKeys(ObjectNode original, ObjectNode patch) throws SmpException {
    JsonNode retain = patch.remove(RETAIN_KEYS);
    if (retain == null) {
      return;
    }
    if (!retain.isArray()) {
      throw new SmpException(BAD_RETAIN_KEYS);
    }
    Set<String> keep = new HashSet<>();
    for (JsonNode v : retain) {
      keep.add(scalarKey(v));
    }
    for (String k : patch.propertyNames()) {
      JsonNode v = patch.get(k);
      if (v.isNull()
          || k.startsWith(DELETE_FROM_PRIMITIVE_LIST)
          || k.startsWith(SET_ELEMENT_ORDER)) {
        continue;
      }
      if (!keep.contains(scalarKey(Json.NODES.stringNode(k)))) {
        throw new SmpException(BAD_RETAIN_KEYS);
      }
    }
    for (String k : new ArrayList<>(original.propertyNames())) {
      if (!keep.contains(scalarKey(Json.NODES.stringNode(k)))) {
        original.remove(k);
      }
    }
  }

  private static String scalarKey(JsonNode v) {
    return goType(v) + ":" + (v.isString() ? v.stringValue() : v.toString());
  }

  private static void mergeSetElementOrder(ObjectNode original, ObjectNode patch, Type schema)
      throws SmpException {
    for (String key : new ArrayList<>(patch.propertyNames())) {
      if (!key.startsWith(SET_ELEMENT_ORDER)) {
        continue;
      }
      JsonNode order = patch.remove(key);
      if (!order.isArray()) {
        throw badArgType("[]interface {}", order);
      }
      String origKey = extractKey(key, SET_ELEMENT_ORDER);
      JsonNode origList = original.get(origKey);
      JsonNode patchList = patch.get(origKey);
      if (origList != null && !origList.isArray()) {
        throw badArgType("[]interface {}", origList);
      }
      if (patchList != null && !patchList.isArray()) {
        throw badArgType("[]interface {}", patchList);
      }
      Field field = schema.field(origKey);
      String mergeKey = field.mergeKey();
      validateWithSetOrder((ArrayNode) patchList, (ArrayNode) order, mergeKey);
      ArrayNode merged;
      if (origList != null && patchList == null) {
        merged = (ArrayNode) origList;
      } else if (origList == null && patchList != null) {
        merged = (ArrayNode) clean(removeDirectives(patchList));
      } else if (origList != null) {
        merged = mergeSliceHandler((ArrayNode) origList, (ArrayNode) patchList, field, false);
      } else {
        continue;
      }
      List<JsonNode> patchItems = new ArrayList<>();
      List<JsonNode> serverOnly = new ArrayList<>();
      partition(merged, (ArrayNode) order, mergeKey, patchItems, serverOnly);
      String kind = elementType((ArrayNode) origList, (ArrayNode) patchList);
      List<JsonNode> orig = origList == null ? List.of() : list(origList);
      if (origList != null && patchList != null && kind.startsWith("map")) {
        orig = goAliasedView(orig, list(patchList), mergeKey);
      }
      original.set(
          origKey,
          toArray(
              normalizeElementOrder(patchItems, serverOnly, list(order), orig, mergeKey, kind)));
      patch.remove(origKey);
    }
  }

  /**
   * What upstream's original list reads after merging: Go deletes list elements and appends new
   * ones in place in the original's backing array (capacity as append growth leaves it), and the
   * $setElementOrder step orders server-only elements by that mutated list.
   */
  private static List<JsonNode> goAliasedView(
      List<JsonNode> original, List<JsonNode> patch, String mergeKey) {
    int n = original.size();
    int cap = n == 0 ? 0 : Integer.highestOneBit(n - 1) << 1;
    cap = Math.max(cap, n);
    JsonNode[] backing = original.toArray(new JsonNode[cap]);
    int len = n;
    boolean replace = false;
    for (JsonNode v : patch) {
      JsonNode d = v.get(DIRECTIVE);
      if (d == null || !d.isString()) {
        continue;
      }
      if ("replace".equals(d.stringValue())) {
        replace = true;
      } else if ("delete".equals(d.stringValue()) && v.has(mergeKey)) {
        int i;
        while ((i = indexIn(backing, len, mergeKey, v.get(mergeKey))) >= 0) {
          System.arraycopy(backing, i + 1, backing, i, len - i - 1);
          len--;
        }
      }
    }
    if (!replace) {
      for (JsonNode v : patch) {
        if (v.has(DIRECTIVE) || !v.has(mergeKey)) {
          continue;
        }
        if (indexIn(backing, len, mergeKey, v.get(mergeKey)) < 0) {
          if (len == cap) {
            break; // Go reallocates: later writes no longer reach the original array
          }
          backing[len++] = v;
        }
      }
    }
    List<JsonNode> view = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      view.add(backing[i]);
    }
    return view;
  }

  private static int indexIn(JsonNode[] a, int len, String key, JsonNode value) {
    for (int i = 0; i < len; i++) {
      if (a[i] != null && a[i].isObject() && Json.same(a[i].get(key), value)) {
        return i;
      }
    }
    return -1;
  }

  private static void validateWithSetOrder(ArrayNode patchList, ArrayNode order, String mergeKey)
      throws SmpException {
    if (patchList == null || order.isEmpty() || patchList.isEmpty()) {
      return;
    }
    List<JsonNode> nonDelete = new ArrayList<>();
    if (!mergeKey.isEmpty()) {
      List<JsonNode> toDelete = new ArrayList<>();
      extractToDelete(list(patchList), nonDelete, toDelete);
    } else {
      nonDelete.addAll(list(patchList));
    }
    int p = 0;
    int s = 0;
    while (p < nonDelete.size() && s < order.size()) {
      if (nonDelete.get(p).isObject() && nonDelete.get(p).has(DIRECTIVE)) {
        p++;
        continue;
      }
      if (mergeKeyValueEqual(nonDelete.get(p), order.get(s), mergeKey)) {
        p++;
      }
      s++;
    }
    if (p < nonDelete.size() && s >= order.size()) {
      throw new SmpException(
          "The order in patch list:\n"
              + Json.goValue(patchList)
              + "\n doesn't match "
              + SET_ELEMENT_ORDER
              + " list:\n"
              + Json.goValue(order)
              + "\n");
    }
  }

  private static boolean mergeKeyValueEqual(JsonNode left, JsonNode right, String mergeKey)
      throws SmpException {
    if (mergeKey.isEmpty()) {
      return Json.same(left, right);
    }
    if (!left.isObject()) {
      throw badArgType("map[string]interface {}", left);
    }
    if (!right.isObject()) {
      throw badArgType("map[string]interface {}", right);
    }
    if (!left.has(mergeKey)) {
      throw noMergeKey(left, mergeKey);
    }
    if (!right.has(mergeKey)) {
      throw noMergeKey(right, mergeKey);
    }
    return Json.same(left.get(mergeKey), right.get(mergeKey));
  }

  private static ArrayNode mergeSliceHandler(
      ArrayNode original, ArrayNode patch, Field field, boolean deleteList) throws SmpException {
    if ("merge".equals(field.patchStrategy()) || deleteList) {
      return toArray(
          mergeSlice(
              list(original),
              list(patch),
              field.elementField().objectType(),
              field.mergeKey(),
              deleteList));
    }
    return (ArrayNode) clean(patch);
  }

  private static List<JsonNode> mergeSlice(
      List<JsonNode> original, List<JsonNode> patch, Type schema, String mergeKey, boolean delete)
      throws SmpException {
    if (original.isEmpty() && patch.isEmpty()) {
      return original;
    }
    String kind = elementType(original, patch);
    List<JsonNode> merged;
    if (!kind.startsWith("map")) {
      if (delete) {
        return deleteFromSlice(original, patch);
      }
      List<JsonNode> both = new ArrayList<>(original);
      both.addAll(patch);
      merged = deduplicateScalars(both);
    } else {
      if (mergeKey.isEmpty()) {
        throw new SmpException("cannot merge lists without merge key for " + schema.name);
      }
      List<JsonNode> patchRest = new ArrayList<>();
      original = mergeSpecialElements(new ArrayList<>(original), patch, mergeKey, patchRest);
      merged = mergeWithoutSpecialElements(original, patchRest, mergeKey, schema);
      patch = patchRest == null ? List.of() : patchRest;
    }
    List<JsonNode> patchItems = new ArrayList<>();
    List<JsonNode> serverOnly = new ArrayList<>();
    partition(merged, patch, mergeKey, patchItems, serverOnly);
    return normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, kind);
  }

  /**
   * Applies {@code $patch: delete} elements to original; returns the new original (the patch
   * elements alone for {@code $patch: replace}) and fills rest with the other patch elements.
   */
  private static List<JsonNode> mergeSpecialElements(
      List<JsonNode> original, List<JsonNode> patch, String mergeKey, List<JsonNode> rest)
      throws SmpException {
    boolean replace = false;
    for (JsonNode v : patch) {
      JsonNode directive = v.get(DIRECTIVE);
      if (directive == null) {
        rest.add(v);
        continue;
      }
      String d = directive.isString() ? directive.stringValue() : null;
      if ("delete".equals(d)) {
        if (!v.has(mergeKey)) {
          throw noMergeKey(v, mergeKey);
        }
        JsonNode value = v.get(mergeKey);
        int idx;
        while ((idx = findByKey(original, mergeKey, value)) >= 0) {
          original.remove(idx);
        }
      } else if ("replace".equals(d)) {
        replace = true;
      } else if ("merge".equals(d)) {
        throw new SmpException("merging lists cannot yet be specified in the patch");
      } else {
        throw new SmpException(
            "unknown patch type: " + goString(directive) + " in map: " + Json.goValue(v));
      }
    }
    if (replace) {
      List<JsonNode> replaced = new ArrayList<>();
      for (JsonNode v : rest) {
        replaced.add(clean(v));
      }
      rest.clear();
      return replaced;
    }
    return original;
  }

  private static List<JsonNode> mergeWithoutSpecialElements(
      List<JsonNode> original, List<JsonNode> patch, String mergeKey, Type schema)
      throws SmpException {
    List<JsonNode> out = new ArrayList<>(original);
    for (JsonNode v : patch) {
      if (!v.has(mergeKey)) {
        throw noMergeKey(v, mergeKey);
      }
      int idx = findByKey(out, mergeKey, v.get(mergeKey));
      if (idx >= 0) {
        JsonNode mergedMap = mergeMap((ObjectNode) out.get(idx), (ObjectNode) v, schema);
        out.set(idx, mergedMap);
        if (idx < original.size()) {
          original.set(idx, mergedMap); // upstream merges in place: the server order sees it
        }
      } else {
        out.add(clean(v));
      }
    }
    return out;
  }

  private static int findByKey(List<JsonNode> list, String key, JsonNode value)
      throws SmpException {
    for (int i = 0; i < list.size(); i++) {
      JsonNode m = list.get(i);
      if (!m.isObject()) {
        throw new SmpException("value for key " + i + " is not a map");
      }
      if (m.has(key) && Json.same(m.get(key), value)) {
        return i;
      }
    }
    return -1;
  }

  private static List<JsonNode> deleteFromSlice(List<JsonNode> current, List<JsonNode> toDelete) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode v : current) {
      if (toDelete.stream().noneMatch(d -> Json.same(d, v))) {
        out.add(v);
      }
    }
    return out;
  }

  /** Upstream's in-place deduplication (moves the last element into a duplicate's slot). */
  private static List<JsonNode> deduplicateScalars(List<JsonNode> s) {
    int length = s.size() - 1;
    for (int i = 0; i < length; i++) {
      for (int j = i + 1; j <= length; j++) {
        if (Json.same(s.get(i), s.get(j))) {
          s.set(j, s.get(length));
          s.remove(length);
          length--;
          j--;
        }
      }
    }
    return s;
  }

  private static void partition(
      Iterable<JsonNode> merged,
      Iterable<JsonNode> by,
      String mergeKey,
      List<JsonNode> present,
      List<JsonNode> absent)
      throws SmpException {
    List<JsonNode> byList = new ArrayList<>();
    by.forEach(byList::add);
    for (JsonNode v : merged) {
      boolean found;
      if (mergeKey.isEmpty()) {
        found = byList.stream().anyMatch(b -> Json.same(b, v));
      } else {
        if (!v.isObject()) {
          throw badArgType("map[string]interface {}", v);
        }
        if (!v.has(mergeKey)) {
          throw noMergeKey(v, mergeKey);
        }
        found = findByKey(byList, mergeKey, v.get(mergeKey)) >= 0;
      }
      (found ? present : absent).add(v);
    }
  }

  private static List<JsonNode> normalizeElementOrder(
      List<JsonNode> patch,
      List<JsonNode> serverOnly,
      List<JsonNode> patchOrder,
      List<JsonNode> serverOrder,
      String mergeKey,
      String kind)
      throws SmpException {
    List<JsonNode> p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
    List<JsonNode> s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
    return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
  }

  private static List<JsonNode> normalizeSliceOrder(
      List<JsonNode> toSort, List<JsonNode> order, String mergeKey, String kind)
      throws SmpException {
    List<JsonNode> sorted = new ArrayList<>(toSort);
    List<JsonNode> toDelete = new ArrayList<>();
    if (kind.startsWith("map")) {
      for (List<JsonNode> l : List.of(toSort, order)) {
        for (JsonNode v : l) {
          if (!v.isObject()) {
            throw badArgType("map[string]interface {}", v);
          }
          if (!v.has(mergeKey)) {
            throw noMergeKey(v, mergeKey);
          }
        }
      }
      sorted = new ArrayList<>();
      extractToDelete(toSort, sorted, toDelete);
    }
    // Go's sort.SliceStable is an insertion sort for short slices; the comparator is not a
    // strict order when an element is missing from order, so the algorithm matters.
    for (int i = 1; i < sorted.size(); i++) {
      for (int j = i; j > 0 && less(sorted.get(j), sorted.get(j - 1), order, mergeKey, kind); j--) {
        JsonNode t = sorted.get(j);
        sorted.set(j, sorted.get(j - 1));
        sorted.set(j - 1, t);
      }
    }
    sorted.addAll(toDelete);
    return sorted;
  }

  private static boolean less(
      JsonNode a, JsonNode b, List<JsonNode> order, String mergeKey, String kind) {
    int ia = index(order, a, mergeKey, kind);
    if (ia >= 0) {
      int ib = index(order, b, mergeKey, kind);
      if (ib >= 0) {
        return ia < ib;
      }
    }
    return true;
  }

  private static int index(List<JsonNode> l, JsonNode v, String mergeKey, String kind) {
    JsonNode key = keyOf(v, mergeKey, kind);
    for (int i = 0; i < l.size(); i++) {
      if (Json.same(key, keyOf(l.get(i), mergeKey, kind))) {
        return i;
      }
    }
    return -1;
  }

  private static JsonNode keyOf(JsonNode v, String mergeKey, String kind) {
    if (!kind.startsWith("map")) {
      return v;
    }
    return v.isObject() ? v.get(mergeKey) : null;
  }

  private static List<JsonNode> mergeSortedSlice(
      List<JsonNode> left,
      List<JsonNode> right,
      List<JsonNode> serverOrder,
      String mergeKey,
      String kind) {
    List<JsonNode> out = new ArrayList<>(left.size() + right.size());
    int i = 0;
    int j = 0;
    while (i < left.size() || j < right.size()) {
      if (i >= left.size()) {
        out.add(right.get(j++));
      } else if (j >= right.size()) {
        out.add(left.get(i++));
      } else {
        int li = index(serverOrder, left.get(i), mergeKey, kind);
        int ri = index(serverOrder, right.get(j), mergeKey, kind);
        if (li >= 0 && ri >= 0 && li < ri) {
          out.add(left.get(i++));
        } else {
          out.add(right.get(j++));
        }
      }
    }
    return out;
  }

  private static void extractToDelete(
      List<JsonNode> l, List<JsonNode> nonDelete, List<JsonNode> toDelete) throws SmpException {
    for (JsonNode v : l) {
      if (!v.isObject()) {
        throw badArgType("map[string]interface {}", v);
      }
      JsonNode d = v.get(DIRECTIVE);
      if (d != null && d.isString() && "delete".equals(d.stringValue())) {
        toDelete.add(v);
      } else {
        nonDelete.add(v);
      }
    }
  }

  /** The common Go type of all elements of the lists ("map..." for objects). */
  private static String elementType(Iterable<JsonNode> a, Iterable<JsonNode> b)
      throws SmpException {
    String prev = null;
    List<JsonNode> all = new ArrayList<>();
    if (a != null) {
      a.forEach(all::add);
    }
    if (b != null) {
      b.forEach(all::add);
    }
    for (JsonNode v : all) {
      String t = goType(v);
      if (prev == null) {
        prev = t;
        if (v.isArray()) {
          throw new SmpException(NO_LIST_OF_LISTS);
        }
      } else if (!prev.equals(t)) {
        throw new SmpException(
            "list element types are not identical: "
                + "["
                + Json.goValue(toArray(listOrEmpty(a)))
                + " "
                + Json.goValue(toArray(listOrEmpty(b)))
                + "]");
      }
    }
    if (prev == null) {
      throw new SmpException("no elements in any of the given slices");
    }
    return prev;
  }

  private static String extractKey(String s, String prefix) throws SmpException {
    int slash = s.indexOf('/');
    if (slash < 0 || !s.substring(0, slash).equals(prefix)) {
      throw new SmpException(
          DELETE_FROM_PRIMITIVE_LIST.equals(prefix) ? BAD_PRIMITIVE_LIST : BAD_SET_ELEMENT_ORDER);
    }
    return s.substring(slash + 1);
  }

  /** Sets a value taken from the patch: nulls and directives dropped as upstream does. */
  private static void setNew(ObjectNode original, String k, JsonNode patchV) {
    JsonNode v = removeDirectives(MergePatch.pruneNulls(patchV));
    if (v == null) {
      original.remove(k);
    } else {
      original.set(k, clean(v));
    }
  }

  /** Upstream's removeDirectives: null when the value is itself a {@code $patch} map. */
  static JsonNode removeDirectives(JsonNode v) {
    if (v instanceof ObjectNode o) {
      if (o.has(DIRECTIVE)) {
        return null;
      }
      for (String k : new ArrayList<>(o.propertyNames())) {
        JsonNode c = removeDirectives(o.get(k));
        if (c == null) {
          o.remove(k);
        } else {
          o.set(k, c);
        }
      }
      return o;
    }
    if (v instanceof ArrayNode a) {
      ArrayNode out = Json.array();
      for (JsonNode c : a) {
        JsonNode r = removeDirectives(c);
        if (r != null) {
          out.add(r);
        }
      }
      return out;
    }
    return v;
  }

  /**
   * Drops directive keys and null fields left in values taken whole from the patch; upstream leaves
   * them to the typed decoding, which ignores unknown fields and omits empty ones.
   */
  static JsonNode clean(JsonNode v) {
    if (v instanceof ObjectNode o) {
      for (String k : new ArrayList<>(o.propertyNames())) {
        if (k.startsWith("$") || o.get(k).isNull()) {
          o.remove(k);
        } else {
          clean(o.get(k));
        }
      }
    } else if (v instanceof ArrayNode a) {
      for (JsonNode c : a) {
        clean(c);
      }
    }
    return v;
  }

  /** The Go type name of a decoded JSON value (ints decoded as int64, as the server does). */
  static String goType(JsonNode v) {
    if (v == null || v.isNull()) {
      return "<nil>";
    } else if (v.isObject()) {
      return "map[string]interface {}";
    } else if (v.isArray()) {
      return "[]interface {}";
    } else if (v.isString()) {
      return "string";
    } else if (v.isBoolean()) {
      return "bool";
    } else if (v.isIntegralNumber()) {
      return "int64";
    }
    return "float64";
  }

  private static String goString(JsonNode v) {
    if (v.isString()) {
      return v.stringValue();
    }
    return "%!s(" + goType(v) + "=" + Json.goValue(v) + ")";
  }

  private static SmpException badArgType(String expected, JsonNode actual) {
    String a = actual == null || actual.isNull() ? "%!s(<nil>)" : goType(actual);
    return new SmpException("expected a " + expected + ", but received a " + a);
  }

  private static SmpException noMergeKey(JsonNode m, String key) {
    return new SmpException(
        "map: " + Json.goValue(m) + " does not contain declared merge key: " + key);
  }

  private static List<JsonNode> list(JsonNode a) {
    List<JsonNode> l = new ArrayList<>();
    if (a != null) {
      a.forEach(l::add);
    }
    return l;
  }

  private static List<JsonNode> listOrEmpty(Iterable<JsonNode> a) {
    List<JsonNode> l = new ArrayList<>();
    if (a != null) {
      a.forEach(l::add);
    }
    return l;
  }

  private static ArrayNode toArray(List<JsonNode> l) {
    ArrayNode a = Json.array();
    l.forEach(a::add);
    return a;
  }
}
