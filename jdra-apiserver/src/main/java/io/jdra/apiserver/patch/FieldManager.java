package io.jdra.apiserver.patch;

import io.jdra.apiserver.patch.ManagedFields.Entry;
import io.jdra.apiserver.patch.ManagedFields.Id;
import io.jdra.apiserver.patch.Schema.Field;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Server-side apply and managedFields tracking with the semantics of kube-apiserver's field manager
 * stack (structured merge, stripped metadata, ignored reset fields, last-applied upgrade for the
 * "kubectl" manager).
 */
final class FieldManager {
  static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  /** Paths no manager owns (upstream's stripMetaManager). */
  private static final Set<FieldPath> STRIPPED =
      Set.of(
          path("apiVersion"),
          path("kind"),
          path("metadata"),
          path("metadata", "name"),
          path("metadata", "namespace"),
          path("metadata", "creationTimestamp"),
          path("metadata", "selfLink"),
          path("metadata", "uid"),
          path("metadata", "clusterName"),
          path("metadata", "generation"),
          path("metadata", "managedFields"),
          path("metadata", "resourceVersion"));

  /** Kinds served with a status subresource: main-resource writes do not own .status. */
  private static final Set<String> STATUS_KINDS =
      Set.of(
          "Pod",
          "Node",
          "Namespace",
          "PersistentVolumeClaim",
          "Service",
          "Deployment",
          "ReplicaSet",
          "StatefulSet",
          "DaemonSet",
          "Job",
          "CronJob",
          "PodDisruptionBudget",
          "ResourceClaim",
          "DeviceTaintRule");

  private FieldManager() {}

  private static FieldPath path(String... names) {
    List<FieldPath.Element> l = new ArrayList<>();
    for (String n : names) {
      l.add(new FieldPath.Field(n));
    }
    return new FieldPath(l);
  }

  private static final FieldPath STATUS = path("status");
  private static final FieldPath SPEC = path("spec");

  private record Context(String apiVersion, String kind, Field root, String subresource) {
    /**
     * Drops the fields the strategy resets for this endpoint (status or everything else) from a set
     * only the caller holds, and returns it.
     */
    FieldSet ignore(FieldSet s) {
      if ("status".equals(subresource)) {
        s.removePrefix(SPEC);
      } else if (subresource.isEmpty() && STATUS_KINDS.contains(kind)) {
        s.removePrefix(STATUS);
      }
      return s;
    }
  }

  /** Drops the paths no manager owns from a set only the caller holds, and returns it. */
  private static FieldSet strip(FieldSet s) {
    s.removeAll(STRIPPED_SET);
    return s;
  }

  /**
   * The entry's set without what a write changed or removed; the set itself when the write did not
   * touch it (most writes change fields of one manager only).
   */
  private static FieldSet without(FieldSet set, FieldSet changed, FieldSet removed) {
    if (!set.intersects(changed) && !set.intersects(removed)) {
      return set;
    }
    return set.minus(changed, removed);
  }

  private static final FieldSet STRIPPED_SET = new FieldSet(STRIPPED);

  // ---- apply

  static ObjectNode apply(
      String apiVersion,
      String kind,
      ObjectNode current,
      byte[] body,
      String manager,
      boolean force,
      Instant now,
      String subresource)
      throws PatchException {
    ObjectNode config = decodeConfig(body);
    String gotVersion = text(config.get("apiVersion"));
    String gotKind = text(config.get("kind"));
    if (!gotVersion.equals(apiVersion) || !gotKind.equals(kind)) {
      throw PatchException.badRequest("invalid object type: " + gvk(gotVersion, gotKind));
    }
    JsonNode meta = config.get("metadata");
    if (meta != null && meta.has("managedFields") && !meta.get("managedFields").isNull()) {
      throw PatchException.badRequest("metadata.managedFields must be nil");
    }
    Context ctx =
        new Context(
            apiVersion, kind, Typed.root(Schema.forKind(apiVersion, kind)), sub(subresource));
    List<String> invalid = Typed.validate(config, ctx.root);
    if (!invalid.isEmpty()) {
      // upstream answers 500 with this message; a bad configuration is the client's error
      throw PatchException.badRequest(
          "failed to create typed patch object ("
              + text(meta == null ? null : meta.get("namespace"))
              + "/"
              + text(meta == null ? null : meta.get("name"))
              + "; "
              + gvk(gotVersion, gotKind)
              + "): "
              + validationMessage(invalid));
    }
    ObjectNode live = current == null ? Json.object() : withoutManagedFields(current);
    Map<Id, Entry> managers = current == null ? new LinkedHashMap<>() : decodeOrEmpty(current);
    Id id = Id.apply(manager, ctx.subresource);
    Result r = applyOnce(ctx, live, config, copy(managers), id, force, now);
    if (r.conflicts != null && "kubectl".equals(manager)) {
      FieldSet allowed = allowedByLastApplied(ctx, live);
      if (r.conflicts.stream().allMatch(c -> allowed.contains(c.path))) {
        r = applyOnce(ctx, live, config, copy(managers), id, true, now);
      } else {
        r.conflicts.removeIf(c -> allowed.contains(c.path));
      }
    }
    if (r.conflicts != null) {
      throw conflictError(r.conflicts);
    }
    ObjectNode result = r.object.deepCopy(); // shares nothing with the inputs
    if ("kubectl".equals(manager) && lastApplied(result) != null) {
      ((ObjectNode) result.get("metadata").get("annotations"))
          .put(LAST_APPLIED, buildLastApplied(config));
    }
    capUpdateManagers(r.managers);
    ManagedFields.encodeInto(result, r.managers);
    return result;
  }

  private static String validationMessage(List<String> errors) {
    if (errors.size() == 1) {
      return errors.get(0);
    }
    List<String> lines = new ArrayList<>();
    lines.add("errors:");
    errors.forEach(e -> lines.add("  " + e));
    return String.join("\n", lines);
  }

  private record Conflict(Id manager, FieldPath path) {}

  private static final class Result {
    ObjectNode object;
    Map<Id, Entry> managers;
    List<Conflict> conflicts;
  }

  private static Result applyOnce(
      Context ctx,
      ObjectNode live,
      ObjectNode config,
      Map<Id, Entry> managers,
      Id id,
      boolean force,
      Instant now) {
    ObjectNode merged = (ObjectNode) Typed.merge(live, config, ctx.root);
    FieldSet newSet = ctx.ignore(Typed.toFieldSet(config, ctx.root));
    Entry last = managers.get(id);
    if (last != null && !last.set.isEmpty()) {
      merged = prune(ctx, merged, managers, id, last.set, newSet);
    }
    Typed.Comparison cmp = compare(ctx, live, merged);
    List<Conflict> conflicts = new ArrayList<>();
    FieldSet changed = cmp.changed();
    for (Entry e : managers.values()) {
      if (e.id.equals(id)) {
        continue;
      }
      for (FieldPath p : e.set.intersect(changed).paths()) {
        conflicts.add(new Conflict(e.id, p));
      }
    }
    Result r = new Result();
    if (!force && !conflicts.isEmpty()) {
      r.conflicts = conflicts;
      return r;
    }
    for (Entry e : managers.values()) {
      if (!e.id.equals(id)) {
        e.set = without(e.set, changed, cmp.removed());
      }
    }
    boolean noop = Json.same(live, merged);
    String time = noop ? (last == null ? null : last.time) : ManagedFields.time(now);
    managers.put(id, new Entry(id, ctx.apiVersion, time, strip(newSet)));
    managers.values().removeIf(e -> e.set.isEmpty());
    r.object = noop ? live : merged;
    r.managers = managers;
    return r;
  }

  /**
   * Removes what the applier owned last time and no longer applies, unless another manager (or the
   * new configuration) still owns it.
   */
  private static ObjectNode prune(
      Context ctx,
      ObjectNode merged,
      Map<Id, Entry> managers,
      Id id,
      FieldSet lastSet,
      FieldSet newSet) {
    FieldSet keep = newSet;
    for (Entry e : managers.values()) {
      if (!e.id.equals(id)) {
        keep = keep.union(e.set);
      }
    }
    if (lastSet.minus(keep).isEmpty()) {
      return merged; // the usual re-apply: everything still owned, nothing to compute
    }
    FieldSet toRemove =
        Typed.withNamedFields(lastSet, ctx.root).minus(Typed.withNamedFields(keep, ctx.root));
    if (toRemove.isEmpty()) {
      return merged;
    }
    ObjectNode pruned = merged.deepCopy(); // merged shares subtrees with the live object
    for (FieldPath p : toRemove.paths()) {
      Typed.remove(pruned, p, ctx.root);
    }
    return pruned;
  }

  private static Typed.Comparison compare(Context ctx, JsonNode before, JsonNode after) {
    Typed.Comparison c = Typed.compare(before, after, ctx.root, true, true);
    return new Typed.Comparison(
        ctx.ignore(c.added()), ctx.ignore(c.modified()), ctx.ignore(c.removed()));
  }

  /**
   * Fields of the last-applied annotation whose value the live object still has: "kubectl" may take
   * them over from client-side apply without a conflict (upstream's lastAppliedManager).
   */
  private static FieldSet allowedByLastApplied(Context ctx, ObjectNode live) {
    String annotation = lastApplied(live);
    if (annotation == null || annotation.isEmpty()) {
      return new FieldSet();
    }
    JsonNode la = Json.parseOrNull(annotation.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    if (la == null || !la.isObject()) {
      return new FieldSet();
    }
    FieldSet set = Typed.toFieldSet(la, ctx.root);
    Typed.Comparison c = Typed.compare(la, live, ctx.root, false, true);
    return set.minus(c.modified()).minus(c.added()).minus(c.removed());
  }

  private static String lastApplied(ObjectNode obj) {
    JsonNode a = obj.path("metadata").path("annotations").get(LAST_APPLIED);
    return a != null && a.isString() ? a.stringValue() : null;
  }

  /** The annotation value: the applied object without the annotation, as Go encodes JSON. */
  static String buildLastApplied(ObjectNode config) {
    ObjectNode c = config.deepCopy();
    JsonNode ann = c.path("metadata").get("annotations");
    if (ann instanceof ObjectNode a) {
      a.remove(LAST_APPLIED);
    }
    return goJson(sorted(c)) + "\n";
  }

  private static JsonNode sorted(JsonNode n) {
    if (n.isObject()) {
      ObjectNode o = Json.object();
      TreeMap<String, JsonNode> m = new TreeMap<>();
      n.properties().forEach(e -> m.put(e.getKey(), e.getValue()));
      m.forEach((k, v) -> o.set(k, sorted(v)));
      return o;
    }
    if (n.isArray()) {
      var a = Json.array();
      n.forEach(v -> a.add(sorted(v)));
      return a;
    }
    return n;
  }

  /** Go's encoding/json escapes HTML characters. */
  private static String goJson(JsonNode n) {
    return Json.write(n).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
  }

  private static PatchException conflictError(List<Conflict> conflicts) {
    conflicts.sort(
        Comparator.comparing((Conflict c) -> c.manager.key()).thenComparing(Conflict::path));
    List<PatchException.Cause> causes = new ArrayList<>();
    for (Conflict c : conflicts) {
      causes.add(
          new PatchException.Cause(
              "FieldManagerConflict", "conflict with " + c.manager.display(), c.path.toString()));
    }
    String message;
    if (conflicts.size() == 1) {
      Conflict c = conflicts.get(0);
      message =
          "Apply failed with 1 conflict: conflict with " + c.manager.display() + ": " + c.path;
    } else {
      List<String> parts = new ArrayList<>();
      Id prev = null;
      for (Conflict c : conflicts) {
        if (!c.manager.equals(prev)) {
          parts.add("conflicts with " + c.manager.display() + ":");
          prev = c.manager;
        }
        parts.add("- " + c.path);
      }
      message = "Apply failed with " + conflicts.size() + " conflicts: " + String.join("\n", parts);
    }
    return PatchException.conflict(message, causes);
  }

  // ---- update

  /**
   * managedFields bookkeeping of an ordinary write by {@code manager} (operation Update); without
   * {@code copy}, for a caller that gives {@code updated} up, the result is {@code updated} itself
   * with its metadata.managedFields replaced (unless its metadata object is {@code old}'s: then a
   * new metadata object holding its values).
   */
  static ObjectNode trackUpdate(
      String apiVersion,
      String kind,
      ObjectNode old,
      ObjectNode updated,
      String manager,
      Instant now,
      String subresource,
      boolean copy) {
    return trackUpdate(
        apiVersion, kind, old, updated, manager, now, subresource, copy, CREATE_SHAPES);
  }

  /** The creates' remembered outcomes (see {@link CreateShapes}). */
  private static final CreateShapes CREATE_SHAPES = new CreateShapes();

  /**
   * As above; a create whose shape is the last create's of its kind in {@code creates} records that
   * create's fields (null {@code creates}: always the general path, the tests' reference).
   */
  static ObjectNode trackUpdate(
      String apiVersion,
      String kind,
      ObjectNode old,
      ObjectNode updated,
      String manager,
      Instant now,
      String subresource,
      boolean copy,
      CreateShapes creates) {
    Schema.Type type = Schema.forKind(apiVersion, kind);
    Context ctx = new Context(apiVersion, kind, Typed.root(type), sub(subresource));
    // A create without entries of its own (upstream's decodeLiveOrNew gives none) compares the
    // object with nothing: what it records depends on the object's shape only.
    boolean plainCreate =
        old == null
            && creates != null
            && (!ctx.subresource.isEmpty()
                || updated.path("metadata").get("managedFields") == null);
    ObjectNode result =
        copy ? withoutManagedFields(updated) : withoutManagedFieldsInPlace(updated, old);
    if (plainCreate) {
      CreateShapes.Kept kept = creates.find(type, apiVersion, kind, ctx.subresource, result);
      if (kept != null) {
        return created(result, kept, manager, now, copy);
      }
    }
    ObjectNode live = old == null ? Json.object() : withoutManagedFields(old);
    Map<Id, Entry> managers = managersForUpdate(old, updated, ctx.subresource);
    Typed.Comparison cmp = compare(ctx, live, result);
    boolean remember = plainCreate && creates.wanted(type);
    JsonNode shape = remember ? result.deepCopy() : null;
    if (copy) {
      result = result.deepCopy(); // shares nothing with the inputs
    }
    if (!cmp.isSame()) {
      FieldSet changed = cmp.changed();
      for (Entry e : managers.values()) {
        e.set = without(e.set, changed, cmp.removed());
      }
      Id id = Id.update(manager, apiVersion, ctx.subresource);
      FieldSet own = strip(changed);
      if (!own.isEmpty()) {
        Entry prev = managers.get(id);
        FieldSet set = prev == null ? own : own.union(prev.set);
        managers.put(id, new Entry(id, apiVersion, ManagedFields.time(now), set));
      }
      managers.values().removeIf(e -> e.set.isEmpty());
    }
    capUpdateManagers(managers);
    ManagedFields.encodeInto(result, managers);
    if (remember) {
      Entry e = managers.get(Id.update(manager, apiVersion, ctx.subresource));
      creates.keep(
          type,
          new CreateShapes.Kept(
              apiVersion,
              kind,
              ctx.subresource,
              shape,
              e == null ? null : e.set,
              e == null
                  ? null
                  : result.path("metadata").path("managedFields").path(0).get("fieldsV1")));
    }
    return result;
  }

  /**
   * A create whose shape is a remembered create's: the same entry, its FieldsV1 node shared (stored
   * trees are never changed), with this create's manager and time.
   */
  private static ObjectNode created(
      ObjectNode result, CreateShapes.Kept kept, String manager, Instant now, boolean copy) {
    ObjectNode out = copy ? result.deepCopy() : result;
    Map<Id, Entry> managers = new LinkedHashMap<>();
    if (kept.own() != null) {
      Id id = Id.update(manager, kept.apiVersion(), kept.subresource());
      managers.put(
          id,
          new Entry(id, kept.apiVersion(), ManagedFields.time(now), kept.own(), kept.fieldsV1()));
    }
    ManagedFields.encodeInto(out, managers);
    return out;
  }

  /** Upstream's DefaultMaxUpdateManagers and the bucket older updates are merged into. */
  static final int MAX_UPDATE_MANAGERS = 10;

  static final String ANCIENT_CHANGES = "ancient-changes";

  /**
   * Keeps at most {@link #MAX_UPDATE_MANAGERS} Update entries: the oldest are merged, per
   * apiVersion, into an "ancient-changes" entry (upstream's capManagersManager).
   */
  static void capUpdateManagers(Map<Id, Entry> managers) {
    List<Entry> updaters = new ArrayList<>();
    for (Entry e : managers.values()) {
      if (ManagedFields.UPDATE.equals(e.id.operation())) {
        updaters.add(e);
      }
    }
    if (updaters.size() <= MAX_UPDATE_MANAGERS) {
      return;
    }
    updaters.sort(
        Comparator.comparing((Entry e) -> e.time == null ? "" : e.time)
            .thenComparing(e -> e.id.key()));
    Map<String, Entry> firstByVersion = new LinkedHashMap<>();
    int length = updaters.size();
    for (int i = 0; i < updaters.size() && length > MAX_UPDATE_MANAGERS; i++) {
      Entry e = updaters.get(i);
      Entry first = firstByVersion.get(e.apiVersion);
      if (first == null) {
        firstByVersion.put(e.apiVersion, e);
        continue;
      }
      Id bucket = Id.update(ANCIENT_CHANGES, e.apiVersion, "");
      Entry b = managers.get(bucket);
      if (b == null) {
        managers.remove(first.id);
        b = new Entry(bucket, first.apiVersion, first.time, first.set);
        managers.put(bucket, b);
      }
      b.set = e.set.union(b.set);
      b.time = e.time;
      managers.remove(e.id);
      length--;
    }
  }

  /**
   * Upstream's decodeLiveOrNew: an explicit reset ([] or [{}]) clears managedFields; otherwise the
   * request's decodable entries win over the live ones, except on subresources.
   */
  private static Map<Id, Entry> managersForUpdate(
      ObjectNode old, ObjectNode updated, String subresource) {
    if (!subresource.isEmpty()) {
      return old == null ? new LinkedHashMap<>() : decodeOrEmpty(old);
    }
    JsonNode requested = updated.path("metadata").get("managedFields");
    if (old != null
        && requested != null
        && requested == old.path("metadata").get("managedFields")) {
      return decodeOrEmpty(old); // the stored entries themselves (a write that kept them)
    }
    if (requested != null && requested.isArray()) {
      if (requested.isEmpty()
          || (requested.size() == 1 && requested.get(0).isObject() && requested.get(0).isEmpty())) {
        return new LinkedHashMap<>();
      }
      try {
        Map<Id, Entry> m = ManagedFields.decode(requested);
        if (!m.isEmpty()) {
          return m;
        }
      } catch (IllegalArgumentException | JacksonException e) {
        // fall back to the live object's entries, as upstream does
      }
    }
    return old == null ? new LinkedHashMap<>() : decodeOrEmpty(old);
  }

  // ---- helpers

  private static ObjectNode decodeConfig(byte[] body) throws PatchException {
    JsonNode n;
    try {
      n = body == null || body.length == 0 ? null : parseYamlOrJson(body);
    } catch (JacksonException e) {
      // upstream: the YAML to JSON conversion fails first (duplicate keys included)
      throw PatchException.badRequest(
          "error encoding patch: error converting YAML to JSON: yaml: " + e.getOriginalMessage(),
          e);
    }
    if (n == null || n.isNull() || n.isMissingNode()) {
      return Json.object();
    }
    if (!n.isObject()) {
      throw PatchException.badRequest(
          "error decoding patch: json: cannot unmarshal "
              + JsonPatch.goJsonKind(n)
              + " into Go value of type map[string]interface {}");
    }
    return (ObjectNode) n;
  }

  /**
   * YAML as sigs.k8s.io/yaml's non-strict conversion reads it for apply: a key given twice keeps
   * its last value (only fieldValidation=Strict/Warn report it, from a separate strict pass).
   */
  private static final tools.jackson.databind.ObjectMapper APPLY_YAML =
      tools.jackson.dataformat.yaml.YAMLMapper.builder().build();

  /** kubectl sends JSON (a YAML subset); the JSON parser is much faster than the YAML one. */
  private static JsonNode parseYamlOrJson(byte[] body) {
    int i = 0;
    while (i < body.length && Character.isWhitespace(body[i])) {
      i++;
    }
    if (i < body.length && body[i] == '{') {
      JsonNode n = Json.parseOrNull(body);
      if (n != null) {
        return n;
      }
    }
    return APPLY_YAML.readTree(body);
  }

  private static String gvk(String apiVersion, String kind) {
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    return group + "/" + version + ", Kind=" + kind;
  }

  private static String text(JsonNode n) {
    return n != null && n.isString() ? n.stringValue() : "";
  }

  private static String sub(String subresource) {
    return subresource == null ? "" : subresource;
  }

  /** A shallow view of obj without metadata.managedFields (obj is not modified). */
  private static ObjectNode withoutManagedFields(ObjectNode obj) {
    ObjectNode c = Json.object();
    c.setAll(obj);
    if (obj.get("metadata") instanceof ObjectNode m) {
      ObjectNode mc = Json.object();
      mc.setAll(m);
      mc.remove("managedFields");
      c.set("metadata", mc);
    }
    return c;
  }

  /**
   * {@code obj} itself without metadata.managedFields, for a caller that gives it up: the same tree
   * {@link #withoutManagedFields} builds (keys in the same order), without copying the root and the
   * metadata. A metadata object that is {@code old}'s (read only) is not changed: then a view as
   * above.
   */
  private static ObjectNode withoutManagedFieldsInPlace(ObjectNode obj, ObjectNode old) {
    if (!(obj.get("metadata") instanceof ObjectNode m)
        || (old != null && m == old.get("metadata"))) {
      return withoutManagedFields(obj);
    }
    m.remove("managedFields");
    return obj;
  }

  private static Map<Id, Entry> decodeOrEmpty(ObjectNode obj) {
    try {
      return ManagedFields.decode(obj.path("metadata").get("managedFields"), true);
    } catch (IllegalArgumentException | JacksonException e) {
      return new LinkedHashMap<>();
    }
  }

  /**
   * Copies of the entries (apply replaces their sets and times), sharing the sets: no step changes
   * an entry's set in place (they build new sets, and trim in place only the sets they built).
   */
  private static Map<Id, Entry> copy(Map<Id, Entry> m) {
    Map<Id, Entry> c = new LinkedHashMap<>();
    m.forEach((k, e) ->
        c.put(
            k,
            new Entry(
                e.id, e.apiVersion, e.time, e.set, e.set == e.encodedSet ? e.encoded : null)));
    return c;
  }
}
