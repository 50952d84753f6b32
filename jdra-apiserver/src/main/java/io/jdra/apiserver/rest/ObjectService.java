package io.jdra.apiserver.rest;

import io.jdra.apiserver.admission.Admission;
import io.jdra.apiserver.admission.NamespaceLifecycle;
import io.jdra.apiserver.auth.UserInfo;
import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Cause;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceRegistry;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.storage.ResourceStore;
import io.jdra.apiserver.storage.Storage;
import io.jdra.apiserver.storage.StorageException;
import io.jdra.apiserver.storage.StoredObject;
import java.time.Clock;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The REST semantics of kube-apiserver's generic registry over {@link Storage}: metadata
 * bookkeeping, optimistic concurrency, status subresources and admission. Objects are in their
 * storage version. Thread-safe; never holds a lock while admitting.
 */
public final class ObjectService {
  private static final int MAX_RETRIES = 16;

  private final ResourceRegistry registry;
  private final Storage storage;
  private final Admission admission;
  private final Clock clock;
  private final Patching patching;

  /**
   * Whether writes may share the stored object's subtrees that the built-in admission does not
   * change in place ({@link Strategies#copyForWrite}); false with an admission of the server's
   * user, which may change any part of the object.
   */
  private final boolean shareStored;

  /** The trees of recent writes: the next write to the object copies instead of parsing. */
  private final RecentTrees recentTrees = new RecentTrees(RECENT_TREES);

  /**
   * Versions whose trees are kept: a few thousand, enough for a pod's and its claim's successive
   * writes while hundreds of pods are in flight; a few MB of heap.
   */
  static final int RECENT_TREES = 1024;

  public ObjectService(
      ResourceRegistry registry,
      Storage storage,
      Admission admission,
      Clock clock,
      Patching patching,
      boolean shareStored) {
    this.registry = registry;
    this.storage = storage;
    this.admission = admission;
    this.clock = clock;
    this.patching = patching;
    this.shareStored = shareStored;
  }

  public Patching patching() {
    return patching;
  }

  public ResourceRegistry registry() {
    return registry;
  }

  public Storage storage() {
    return storage;
  }

  public Clock clock() {
    return clock;
  }

  public ResourceStore store(ResourceType t) {
    return storage.store(t.storageKey());
  }

  /** The stored object, or a 404. */
  public StoredObject get(ResourceType t, String ns, String name) {
    StoredObject o = store(t).get(t.namespaced() ? ns : "", name);
    if (o == null) {
      throw ApiException.notFound(t, name);
    }
    return o;
  }

  /** Serializes an object at a resourceVersion, extracting what selectors need. */
  public StoredObject toStored(ResourceType t, ObjectNode obj, long rv) {
    return prepare(t, obj, null, null).apply(rv);
  }

  /**
   * Serializes an object whose resourceVersion the store assigns later: what goes into the store's
   * write so that its lock covers only a byte splice. The tree is consumed.
   */
  PreparedObject prepare(ResourceType t, ObjectNode obj) {
    return prepare(t, obj, recentTrees, null);
  }

  /**
   * As {@link #prepare(ResourceType, ObjectNode)} for a new version of {@code previous}, whose
   * label and selectable field maps are kept when the values are the same.
   */
  PreparedObject prepare(ResourceType t, ObjectNode obj, StoredObject previous) {
    return prepare(t, obj, recentTrees, previous);
  }

  private PreparedObject prepare(
      ResourceType t, ObjectNode obj, RecentTrees recent, StoredObject previous) {
    ObjectNode meta = Json.child(obj, "metadata");
    // Kept by path, so that every API sharing the storage selects on the same values.
    Map<String, String> fields =
        selectableValues(registry.storageType(t))
            .of(obj, previous == null ? null : previous.fields());
    String ns = t.namespaced() ? Json.text(meta, "namespace") : "";
    JsonNode labels = meta.get("labels");
    return PreparedObject.of(
        obj,
        ns == null ? "" : Interned.of(ns),
        Json.text(meta, "name"),
        Json.text(meta, "uid"),
        previous != null && sameLabels(labels, previous.labels())
            ? previous.labels()
            : compactLabels(labels),
        fields,
        recent);
  }

  /** The selectable values of a storage type's objects (types by identity; few, never dropped). */
  private volatile Map<ResourceType, SelectableValues> selectable = new IdentityHashMap<>();

  private SelectableValues selectableValues(ResourceType storageType) {
    SelectableValues v = selectable.get(storageType);
    if (v != null) {
      return v;
    }
    synchronized (this) {
      Map<ResourceType, SelectableValues> copy = new IdentityHashMap<>(selectable);
      v =
          copy.computeIfAbsent(
              storageType, s -> new SelectableValues(s.selectableFields().values()));
      selectable = copy; // published whole: readers never see a map being filled
      return v;
    }
  }

  /** Whether {@code labels} (a tree, or null) holds exactly the entries of {@code kept}. */
  static boolean sameLabels(JsonNode labels, Map<String, String> kept) {
    if (labels == null || !labels.isObject() || labels.isEmpty()) {
      return kept.isEmpty();
    }
    if (labels.size() != kept.size()) {
      return false;
    }
    for (Map.Entry<String, JsonNode> e : labels.properties()) {
      String v = e.getValue().isNull() ? "" : e.getValue().asString();
      if (!v.equals(kept.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Labels as kept for selectors by every stored version: an immutable map of interned strings,
   * since the same few keys and values recur across thousands of objects.
   */
  static Map<String, String> compactLabels(JsonNode labels) {
    if (labels == null || !labels.isObject() || labels.isEmpty()) {
      return Map.of();
    }
    @SuppressWarnings("unchecked")
    Map.Entry<String, String>[] entries = new Map.Entry[labels.size()];
    int i = 0;
    for (Map.Entry<String, JsonNode> e : labels.properties()) {
      String v = e.getValue().isNull() ? "" : e.getValue().asString();
      entries[i++] = Map.entry(Interned.of(e.getKey()), Interned.of(v));
    }
    return Map.ofEntries(entries);
  }

  // ---------------------------------------------------------------- create

  /**
   * Upstream's maxNameGenerationCreateAttempts (registry Store.Create): attempts in all, each with
   * a new generated name, before a create with generateName fails with AlreadyExists.
   */
  static final int MAX_NAME_GENERATION_CREATE_ATTEMPTS = 8;

  /** Creates an object; the future completes when it is durable. */
  public CompletableFuture<StoredObject> create(
      ResourceType t, String ns, ObjectNode obj, WriteOptions opts) {
    ObjectNode meta = Json.child(obj, "metadata");
    checkNamespace(t, ns, meta);
    String name = Json.text(meta, "name");
    String generateName = Json.text(meta, "generateName");
    boolean generated =
        (name == null || name.isEmpty()) && generateName != null && !generateName.isEmpty();
    if (generated) {
      name = Names.generate(generateName);
      meta.put("name", name);
    }
    prepareCreate(t, obj, meta);
    admit(Admission.Operation.CREATE, t, "", obj, null, opts.user());
    if (t.namespaced()) {
      requireActiveNamespace(t, ns, name);
    }
    ObjectNode tracked =
        opts.applied()
            ? obj
            : patching.trackUpdate(t, null, obj, opts.manager(), "", clock.instant());
    if (opts.dryRun()) {
      return CompletableFuture.completedFuture(toStored(t, tracked, storage.currentVersion()));
    }
    String key = t.namespaced() ? ns : "";
    // As kube-apiserver: a generated name that is taken is generated anew, instead of failing
    // the create (27^5 suffixes: 2,500 pods in a namespace collide in about one run in five).
    for (int attempt = 1; ; attempt++) {
      try {
        return store(t).create(key, name, prepare(t, tracked));
      } catch (StorageException.AlreadyExists e) {
        if (!generated || attempt >= MAX_NAME_GENERATION_CREATE_ATTEMPTS) {
          throw ApiException.alreadyExists(t, name);
        }
        name = Names.generate(generateName);
        Json.child(tracked, "metadata").put("name", name);
      }
    }
  }

  private void prepareCreate(ResourceType t, ObjectNode obj, ObjectNode meta) {
    obj.put("apiVersion", t.storageApiVersion());
    obj.put("kind", t.kind());
    meta.put("uid", UUID.randomUUID().toString());
    meta.put("creationTimestamp", Names.timestamp(clock.instant()));
    meta.remove("deletionTimestamp");
    meta.remove("deletionGracePeriodSeconds");
    meta.remove("resourceVersion");
    meta.remove("selfLink");
    if (obj.has("spec")) {
      meta.put("generation", 1);
    } else {
      meta.remove("generation");
    }
    Strategies.prepareForCreate(t, obj);
  }

  private void checkNamespace(ResourceType t, String ns, ObjectNode meta) {
    String given = Json.text(meta, "namespace");
    if (!t.namespaced()) {
      meta.remove("namespace");
      return;
    }
    if (given != null && !given.isEmpty() && !given.equals(ns)) {
      throw ApiException.badRequest(
          "the namespace of the provided object does not match the namespace sent on the"
              + " request");
    }
    meta.put("namespace", ns);
  }

  private void requireActiveNamespace(ResourceType t, String ns, String name) {
    ResourceType nsType = registry.find("", "v1", "namespaces").orElseThrow();
    StoredObject n = store(nsType).get("", ns);
    if (n == null) {
      throw ApiException.notFound(nsType, ns);
    }
    if ("Terminating".equals(n.fields().get("status.phase"))) {
      throw new ApiException(
          403,
          "Forbidden",
          t.qualifiedResource()
              + " \""
              + name
              + "\" is forbidden: unable to create new content in namespace "
              + ns
              + " because it is being terminated",
          name,
          t.group(),
          t.plural(),
          List.of(
              new Cause(
                  "NamespaceTerminating",
                  "namespace " + ns + " is being terminated",
                  "metadata.namespace")));
    }
  }

  private Map<String, String> namespaceLabels(String ns) {
    ResourceType nsType = registry.find("", "v1", "namespaces").orElseThrow();
    StoredObject n = store(nsType).get("", ns);
    return n == null ? Map.of() : n.labels();
  }

  /**
   * Runs admission for a request on a subresource that does not store the object it carries (an
   * Eviction of a pod): {@code obj} is that object, {@code old} the current object it is about.
   */
  public void admitSubresource(
      ResourceType t, String sub, ObjectNode obj, ObjectNode old, UserInfo user) {
    admit(Admission.Operation.CREATE, t, sub, obj, old, user);
  }

  private void admit(
      Admission.Operation op,
      ResourceType t,
      String sub,
      ObjectNode obj,
      ObjectNode old,
      UserInfo user) {
    List<Cause> causes =
        admission.admit(new Admission.Request(op, t, sub, obj, old, this::namespaceLabels, user));
    if (!causes.isEmpty()) {
      String name = Json.text(obj != null ? obj : old, "metadata.name");
      throw ApiException.invalid(t, name == null ? "" : name, causes);
    }
  }

  // ---------------------------------------------------------------- update

  /**
   * Replaces an object (PUT). With a resourceVersion in the body the write is conditional (409 on
   * mismatch); without one it retries over concurrent writes.
   */
  public CompletableFuture<StoredObject> update(
      ResourceType t, String ns, String name, String sub, ObjectNode body, WriteOptions opts) {
    ObjectNode meta = Json.child(body, "metadata");
    String bodyName = Json.text(meta, "name");
    if (bodyName != null && !bodyName.isEmpty() && !bodyName.equals(name)) {
      throw ApiException.badRequest(
          "the name of the object ("
              + bodyName
              + ") does not match the name on the URL ("
              + name
              + ")");
    }
    meta.put("name", name);
    checkNamespace(t, ns, meta);
    long wanted = parseVersion(Json.text(meta, "resourceVersion"));
    // A write with a resourceVersion is tried once (a conflict fails it), so it may consume the
    // body; only a write that retries needs a fresh copy for each attempt.
    UnaryOperator<ObjectNode> desired =
        current -> {
          ObjectNode d = wanted != 0 ? body : body.deepCopy();
          if (sub.isEmpty()) { // a subresource write takes only its own part of the body
            Strategies.shareStoredValues(t, d, current, shareStored);
          }
          return d;
        };
    return guaranteedUpdate(t, ns, name, sub, wanted, opts, desired, false, trackedSub(sub));
  }

  /**
   * Read-modify-write: {@code mutate} gets a copy of the current object and returns the desired
   * one; metadata and subresource rules are then applied, admission runs, and the write is stored
   * if nothing changed in between (retried otherwise, unless {@code preconditionVersion} is set).
   *
   * <p>A resourceVersion in the desired object is a precondition, as in upstream's generic
   * registry: a PUT body or a patch that carries one writes only over that version (409 otherwise),
   * whereas {@code mutate} leaving the current version in place retries over concurrent writes.
   */
  public CompletableFuture<StoredObject> guaranteedUpdate(
      ResourceType t,
      String ns,
      String name,
      String sub,
      long preconditionVersion,
      WriteOptions opts,
      UnaryOperator<ObjectNode> mutate) {
    return guaranteedUpdate(t, ns, name, sub, preconditionVersion, opts, mutate, true, null);
  }

  /**
   * As above; with {@code copyCurrent} false {@code mutate} gets the current object itself, which
   * it must not change (a PUT's body replaces the object; server-side apply builds a new one).
   *
   * <p>With a {@code trackedSubresource} ("" for the main resource), a write that changes the
   * object (and is not a server-side apply, which recorded its own entry) is recorded in
   * metadata.managedFields as an Update of {@code opts.manager()} for that subresource, as
   * upstream's field manager does for PUT and the other patch types ("scale" for a Scale written to
   * its parent). The pod's binding passes null: upstream's binding writes the pod without the field
   * manager.
   */
  public CompletableFuture<StoredObject> guaranteedUpdate(
      ResourceType t,
      String ns,
      String name,
      String sub,
      long preconditionVersion,
      WriteOptions opts,
      UnaryOperator<ObjectNode> mutate,
      boolean copyCurrent,
      String trackedSubresource) {
    String storeNs = t.namespaced() ? ns : "";
    for (int attempt = 0; ; attempt++) {
      StoredObject current = get(t, ns, name);
      if (preconditionVersion != 0 && current.resourceVersion() != preconditionVersion) {
        throw ApiException.modified(t, name);
      }
      // Read only (shared with other writes): every step below changes copies or new trees.
      ObjectNode old = recentTrees.read(current);
      ObjectNode desired = mutate.apply(copyCurrent ? old.deepCopy() : old);
      long desiredVersion = parseVersion(Json.text(desired, "metadata.resourceVersion"));
      if (desiredVersion != 0 && desiredVersion != current.resourceVersion()) {
        throw ApiException.modified(t, name);
      }
      ObjectNode next = Strategies.prepareForUpdate(t, sub, desired, old, shareStored);
      if (opts.applied() && next != desired) {
        // A subresource write keeps the stored metadata but for the managed fields that
        // server-side apply just recorded (upstream's ResetObjectMetaForStatus keeps them too).
        Strategies.keepManagedFields(next, desired);
      }
      List<String> added = Strategies.addedFinalizersWhileDeleting(next, old);
      if (!added.isEmpty()) {
        throw ApiException.invalid(
            t,
            name,
            List.of(
                new Cause(
                    "FieldValueForbidden",
                    "Forbidden: no new finalizers can be added if the object is being deleted,"
                        + " found new finalizers []string{\""
                        + String.join("\", \"", added)
                        + "\"}",
                    "metadata.finalizers")));
      }
      if (Strategies.finalizersDone(t, next)) {
        return deleteNow(t, storeNs, name, current.resourceVersion(), next, opts.dryRun());
      }
      admit(Admission.Operation.UPDATE, t, sub, next, old, opts.user());
      Strategies.updateGeneration(next, old);
      boolean unchanged = Strategies.unchanged(next, old);
      if (trackedSubresource != null && !unchanged && !opts.applied()) {
        // After admission, as on create: defaults the write brought are the writer's fields too.
        next =
            patching.trackUpdate(t, old, next, opts.manager(), trackedSubresource, clock.instant());
      }
      assert recentTrees.intact(current, old) : "the update changed the tree it read";
      if (unchanged || opts.dryRun()) {
        return CompletableFuture.completedFuture(
            opts.dryRun() ? toStored(t, next, current.resourceVersion()) : current);
      }
      try {
        return store(t).update(storeNs, name, current.resourceVersion(), prepare(t, next, current));
      } catch (StorageException.Conflict e) {
        if (preconditionVersion != 0 || attempt >= MAX_RETRIES) {
          throw ApiException.modified(t, name);
        }
      } catch (StorageException.NotFound e) {
        throw ApiException.notFound(t, name);
      }
    }
  }

  /**
   * A tree of the current object {@code current} (read only) for a write that changes it and stores
   * the result: see {@link Strategies#copyForWrite}. Only fields that admission changes in place
   * are copied, so the caller may change in place only the root, the metadata object and those
   * fields.
   */
  ObjectNode copyForWrite(ResourceType t, ObjectNode current) {
    return Strategies.copyForWrite(t, current, shareStored);
  }

  /** The subresource managedFields names for a write to {@code sub}. */
  public static String trackedSub(String sub) {
    return sub.equals("status") ? "status" : "";
  }

  static long parseVersion(String rv) {
    if (rv == null || rv.isEmpty()) {
      return 0;
    }
    try {
      return Long.parseLong(rv);
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("invalid resource version: " + rv);
    }
  }

  // ---------------------------------------------------------------- delete

  /**
   * The outcome of a delete.
   *
   * @param object the object: its last state, or its state while deletion is pending
   * @param deletedNow whether it is gone (else finalizers or a grace period keep it)
   */
  public record DeleteResult(StoredObject object, boolean deletedNow) {}

  /** Deletes (or starts deleting) an object. */
  public CompletableFuture<DeleteResult> delete(
      ResourceType t, String ns, String name, DeleteOptions o) {
    if (o.propagationPolicy() == null && t.rules().defaultPropagationPolicy() != null) {
      o =
          new DeleteOptions(
              o.gracePeriodSeconds(),
              t.rules().defaultPropagationPolicy(),
              o.uid(),
              o.resourceVersion(),
              o.dryRun(),
              o.user());
    }
    String storeNs = t.namespaced() ? ns : "";
    for (int attempt = 0; ; attempt++) {
      StoredObject current = get(t, ns, name);
      NamespaceLifecycle.checkDelete(t, name);
      checkPreconditions(t, name, current, o);
      // Read only (shared with other writes): deletion begins on a copy, and the last state
      // stored gets a metadata object of its own (where the store's resourceVersion goes).
      ObjectNode obj = recentTrees.read(current);
      admit(Admission.Operation.DELETE, t, "", null, obj, o.user());
      ObjectNode next = Strategies.beginDelete(t, obj, o, clock.instant());
      assert recentTrees.intact(current, obj) : "the delete changed the tree it read";
      if (next == null) {
        int versionAt = o.dryRun() ? -1 : recentTrees.versionAt(current, obj);
        if (versionAt >= 0) {
          // The last state is the stored one at the delete's version: its bytes, restamped,
          // instead of serializing the tree they were written from again.
          LongFunction<StoredObject> restamped = PreparedObject.restamped(current, versionAt);
          assert sameStored(restamped, prepare(t, Strategies.withOwnMetadata(obj), null, null))
              : "a restamped delete differs";
          return deleteNow(t, storeNs, name, current.resourceVersion(), restamped)
              .thenApply(s -> new DeleteResult(s, true));
        }
        ObjectNode last = Strategies.withOwnMetadata(obj);
        return deleteNow(t, storeNs, name, current.resourceVersion(), last, o.dryRun())
            .thenApply(s -> new DeleteResult(s, true));
      }
      if (o.dryRun()) {
        return CompletableFuture.completedFuture(
            new DeleteResult(toStored(t, next, current.resourceVersion()), false));
      }
      if (Strategies.unchanged(next, obj)) {
        return CompletableFuture.completedFuture(new DeleteResult(current, false));
      }
      try {
        return store(t)
            .update(storeNs, name, current.resourceVersion(), prepare(t, next, current))
            .thenApply(s -> new DeleteResult(s, false));
      } catch (StorageException.Conflict e) {
        if (attempt >= MAX_RETRIES) {
          throw ApiException.modified(t, name);
        }
      } catch (StorageException.NotFound e) {
        throw ApiException.notFound(t, name);
      }
    }
  }

  private static void checkPreconditions(
      ResourceType t, String name, StoredObject current, DeleteOptions o) {
    if (o.uid() != null && !o.uid().equals(current.uid())) {
      throw ApiException.conflict(
          t,
          name,
          "Precondition failed: UID in precondition: "
              + o.uid()
              + ", UID in object meta: "
              + current.uid());
    }
    if (o.resourceVersion() != null
        && !o.resourceVersion().equals(Long.toString(current.resourceVersion()))) {
      throw ApiException.conflict(
          t,
          name,
          "Precondition failed: ResourceVersion in precondition: "
              + o.resourceVersion()
              + ", ResourceVersion in object meta: "
              + current.resourceVersion());
    }
  }

  private CompletableFuture<StoredObject> deleteNow(
      ResourceType t, String storeNs, String name, long expected, ObjectNode last, boolean dryRun) {
    if (dryRun) {
      return CompletableFuture.completedFuture(toStored(t, last, expected));
    }
    return deleteNow(t, storeNs, name, expected, prepare(t, last));
  }

  private CompletableFuture<StoredObject> deleteNow(
      ResourceType t, String storeNs, String name, long expected, LongFunction<StoredObject> last) {
    try {
      return store(t).delete(storeNs, name, expected, last);
    } catch (StorageException.Conflict e) {
      throw ApiException.modified(t, name);
    } catch (StorageException.NotFound e) {
      throw ApiException.notFound(t, name);
    }
  }

  /** Whether two builds give the same stored object at a few versions (for assertions). */
  static boolean sameStored(LongFunction<StoredObject> a, LongFunction<StoredObject> b) {
    for (long rv : new long[] {1, 99, 123456789, Long.MAX_VALUE}) {
      StoredObject x = a.apply(rv);
      StoredObject y = b.apply(rv);
      boolean same =
          Arrays.equals(x.json(), y.json())
              && x.namespace().equals(y.namespace())
              && x.name().equals(y.name())
              && Objects.equals(x.uid(), y.uid())
              && x.resourceVersion() == y.resourceVersion()
              && x.labels().equals(y.labels())
              && x.fields().equals(y.fields());
      if (!same) {
        return false;
      }
    }
    return true;
  }
}
