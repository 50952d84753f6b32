package io.jdra.apiserver.http;

import io.jdra.apiserver.convert.Conversion;
import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.FieldSelector;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.meta.LabelSelector;
import io.jdra.apiserver.patch.TypeCheck;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.DeleteOptions;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.rest.Patching;
import io.jdra.apiserver.rest.WriteOptions;
import io.jdra.apiserver.storage.ListPage;
import io.jdra.apiserver.storage.StoredObject;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Serves the REST verbs of resources. Runs on Vert.x event loops; thread-safe. */
final class ResourceHandler {
  private final ObjectService service;
  private final Patching patching;
  private final Watches watches;
  private final Listing listing;

  ResourceHandler(ObjectService service, Patching patching, Watches watches) {
    this.service = service;
    this.patching = patching;
    this.watches = watches;
    this.listing = new Listing(service);
  }

  void handle(Request r) {
    String method = r.http().method().name();
    boolean collection = r.name().isEmpty();
    if (r.subresource().equals("log") && !method.equals("GET")) {
      throw notAllowed();
    }
    if (r.subresource().equals(ScaleSubresource.SCALE)
        && r.type().subresources().contains("scale")) {
      ScaleSubresource.handle(service, this, r);
      return;
    }
    switch (method) {
      case "GET" -> {
        if (collection) {
          if (r.flag("watch")) {
            watches.watch(r, selectors(r));
          } else {
            list(r);
          }
        } else if (r.subresource().equals("log") && r.type().plural().equals("pods")) {
          PodLog.get(service, r);
        } else {
          get(r);
        }
      }
      case "POST" -> {
        if (collection) {
          create(r);
        } else if (r.type().plural().equals("pods") && r.type().group().isEmpty()) {
          PodSubresources.post(service, r, this);
        } else {
          throw notAllowed();
        }
      }
      case "PUT" -> {
        if (collection) {
          throw notAllowed();
        }
        update(r);
      }
      case "PATCH" -> {
        if (collection) {
          throw notAllowed();
        }
        patch(r);
      }
      case "DELETE" -> {
        if (collection) {
          deleteCollection(r);
        } else {
          delete(r);
        }
      }
      default -> throw notAllowed();
    }
  }

  private static ApiException notAllowed() {
    return new ApiException(
        405,
        "MethodNotAllowed",
        "the server does not allow this method on the requested resource",
        null,
        null,
        null,
        List.of());
  }

  // ------------------------------------------------------------------ reads

  private void get(Request r) {
    StoredObject o = service.get(r.type(), r.namespace(), r.name());
    if (r.wantsTable()) {
      ListPage one = new ListPage(List.of(o), o.resourceVersion(), null, 0);
      respond(
          r,
          service.storage().durable(),
          (resp, v) ->
              Responses.json(
                  resp,
                  200,
                  Encoding.table(r.type(), r.version(), one, service.clock().instant())));
      return;
    }
    respond(
        r,
        service.storage().durable(),
        (resp, v) -> Responses.json(resp, 200, Encoding.object(r.type(), r.version(), o)));
  }

  record Selectors(LabelSelector labels, FieldSelector fields) {
    boolean isEmpty() {
      return labels.isEmpty() && fields.isEmpty();
    }

    Predicate<StoredObject> predicate() {
      if (isEmpty()) {
        return o -> true;
      }
      return o -> labels.matches(o.labels()) && fields.matches(o.fields());
    }
  }

  static Selectors selectors(Request r) {
    try {
      return new Selectors(
          LabelSelector.parse(r.param("labelSelector")),
          FieldSelector.parse(r.param("fieldSelector"), r.type().selectableFields()));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(e.getMessage());
    }
  }

  private void list(Request r) {
    listing.list(r, selectors(r));
  }

  static int intParam(Request r, String name) {
    String v = r.param(name);
    if (v == null || v.isEmpty()) {
      return 0;
    }
    try {
      int n = Integer.parseInt(v);
      return Math.max(n, 0);
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("invalid " + name + ": " + v);
    }
  }

  // ----------------------------------------------------------------- writes

  WriteOptions writeOptions(Request r) {
    String dry = r.param("dryRun");
    String fv = r.param("fieldValidation");
    String manager = r.param("fieldManager");
    if (manager == null || manager.isEmpty()) {
      String ua = r.http().getHeader("User-Agent");
      manager = ua == null || ua.isEmpty() ? null : ua.split("/", 2)[0];
    }
    return new WriteOptions(dry != null && dry.equals("All"), manager, "Strict".equals(fv))
        .by(r.user());
  }

  /**
   * Parses the body, applies field validation ({@code optionsKind} names the options upstream
   * validates the parameter in) and converts it to the storage version.
   */
  ObjectNode storageBody(Request r, String optionsKind) {
    FieldValidation.Directive d = FieldValidation.directive(r, optionsKind);
    byte[] raw = r.body().getBytes();
    Bodies.Parsed body =
        Bodies.parseWrite(
            raw,
            r.http().getHeader("Content-Type"),
            r.type().apiVersion(r.version()),
            r.type().kind());
    String version = Bodies.checkKind(r.type(), r.version(), body.object());
    FieldValidation.checkBody(r, d, body, raw, version, r.type());
    return Conversion.fromVersion(r.type(), version, body.object());
  }

  private void create(Request r) {
    if (r.type().namespaced() && r.namespace().isEmpty()) {
      throw notAllowed();
    }
    ObjectNode body = storageBody(r, "CreateOptions");
    CompletableFuture<StoredObject> f =
        service.create(r.type(), r.namespace(), body, writeOptions(r));
    respond(
        r, f, (resp, o) -> Responses.json(resp, 201, Encoding.object(r.type(), r.version(), o)));
  }

  private void update(Request r) {
    if (!r.subresource().isEmpty() && !r.type().subresources().contains(r.subresource())) {
      throw ApiException.pathNotFound();
    }
    ObjectNode body = storageBody(r, "UpdateOptions");
    CompletableFuture<StoredObject> f =
        service.update(r.type(), r.namespace(), r.name(), r.subresource(), body, writeOptions(r));
    respond(
        r, f, (resp, o) -> Responses.json(resp, 200, Encoding.object(r.type(), r.version(), o)));
  }

  private void patch(Request r) {
    String sub = r.subresource();
    if (!sub.isEmpty() && !r.type().subresources().contains(sub)) {
      throw ApiException.pathNotFound();
    }
    String contentType = Bodies.mediaType(r.http().getHeader("Content-Type"));
    WriteOptions opts = writeOptions(r);
    if (!patching.supportedTypes().contains(contentType)) {
      // the patch type is checked before the options, as upstream
      throw ApiException.unsupportedMediaType(contentType, patching.supportedTypes());
    }
    boolean apply = contentType.equals("application/apply-patch+yaml");
    FieldValidation.Directive validation = FieldValidation.patchDirective(r, apply);
    String apiVersion = r.type().apiVersion(r.version());
    byte[] body = r.body().getBytes();
    List<String> bodyErrors = FieldValidation.patchBodyErrors(validation, contentType, body);
    boolean force = r.flag("force");
    StoredObject existing =
        service.store(r.type()).get(r.type().namespaced() ? r.namespace() : "", r.name());
    if (existing == null && apply && sub.isEmpty()) {
      ObjectNode created =
          patching.patch(
              contentType,
              r.type(),
              apiVersion,
              null,
              body,
              opts.fieldManager(),
              force,
              service.clock().instant(),
              sub);
      FieldValidation.checkPatched(
          r, validation, contentType, body, bodyErrors, apiVersion, r.type(), created);
      Conversion.fromVersion(r.type(), r.version(), created);
      respond(
          r,
          service.create(r.type(), r.namespace(), created, opts.asApplied()),
          (resp, o) -> Responses.json(resp, 201, Encoding.object(r.type(), r.version(), o)));
      return;
    }
    // Apply reads the current object without changing it; served in the storage version, the
    // object needs no conversion, and so no copy either.
    boolean readOnly = apply && !Conversion.needed(r.type(), r.version());
    CompletableFuture<StoredObject> f =
        service.guaranteedUpdate(
            r.type(),
            r.namespace(),
            r.name(),
            sub,
            0,
            apply ? opts.asApplied() : opts,
            current -> {
              ObjectNode versioned =
                  readOnly ? current : Conversion.toVersion(r.type(), r.version(), current);
              ObjectNode patched =
                  patching.patch(
                      contentType,
                      r.type(),
                      apiVersion,
                      versioned,
                      body,
                      opts.fieldManager(),
                      force,
                      service.clock().instant(),
                      sub);
              FieldValidation.checkPatched(
                  r, validation, contentType, body, bodyErrors, apiVersion, r.type(), patched);
              return Conversion.fromVersion(r.type(), r.version(), patched);
            },
            !readOnly,
            ObjectService.trackedSub(sub));
    respond(
        r, f, (resp, o) -> Responses.json(resp, 200, Encoding.object(r.type(), r.version(), o)));
  }

  DeleteOptions deleteOptions(Request r) {
    Long grace = null;
    String policy = r.param("propagationPolicy");
    String uid = null;
    String rv = null;
    boolean dry = "All".equals(r.param("dryRun"));
    String g = r.param("gracePeriodSeconds");
    if (g != null && !g.isEmpty()) {
      try {
        grace = Long.parseLong(g);
      } catch (NumberFormatException e) {
        throw ApiException.badRequest("invalid gracePeriodSeconds: " + g);
      }
    }
    if (r.body().length() > 0) {
      ObjectNode b =
          Bodies.parse(
              r.body().getBytes(), r.http().getHeader("Content-Type"), "v1", "DeleteOptions");
      // as upstream's decoder: a value of the wrong type (or out of int64) is the client's error
      String typeError = TypeCheck.decodeErrorAs("meta/v1.DeleteOptions", b);
      if (typeError != null) {
        throw ApiException.badRequest(typeError);
      }
      JsonNode gn = b.get("gracePeriodSeconds");
      if (gn != null && gn.isNumber()) {
        grace = gn.asLong();
      }
      String p = Json.text(b, "propagationPolicy");
      if (p != null) {
        policy = p;
      }
      JsonNode orphan = b.get("orphanDependents");
      if (policy == null && orphan != null && orphan.isBoolean()) {
        policy = orphan.asBoolean() ? "Orphan" : "Background";
      }
      uid = Json.text(b, "preconditions.uid");
      rv = Json.text(b, "preconditions.resourceVersion");
      JsonNode dr = b.get("dryRun");
      if (dr != null && dr.isArray()) {
        for (JsonNode d : dr) {
          dry |= "All".equals(d.asString());
        }
      }
    }
    if (policy != null && !List.of("Background", "Foreground", "Orphan").contains(policy)) {
      throw ApiException.badRequest(
          "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \""
              + policy
              + "\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"");
    }
    return new DeleteOptions(grace, policy, uid, rv, dry, r.user());
  }

  private void delete(Request r) {
    DeleteOptions o = deleteOptions(r);
    respond(
        r,
        service.delete(r.type(), r.namespace(), r.name(), o),
        (resp, res) -> {
          if (!res.deletedNow()) {
            Responses.json(resp, 202, Encoding.object(r.type(), r.version(), res.object()));
          } else if (r.type().plural().equals("pods")) {
            Responses.json(resp, 200, Encoding.object(r.type(), r.version(), res.object()));
          } else {
            Responses.json(resp, 200, success(r.type(), res.object()));
          }
        });
  }

  static ObjectNode success(ResourceType t, StoredObject o) {
    ObjectNode s = Json.object();
    s.put("kind", "Status");
    s.put("apiVersion", "v1");
    s.putObject("metadata");
    s.put("status", "Success");
    ObjectNode d = s.putObject("details");
    d.put("name", o.name());
    if (!t.group().isEmpty()) {
      d.put("group", t.group());
    }
    d.put("kind", t.plural());
    d.put("uid", o.uid());
    return s;
  }

  private void deleteCollection(Request r) {
    Selectors s = selectors(r);
    DeleteOptions o = deleteOptions(r);
    String ns = r.type().namespaced() ? r.namespace() : null;
    ListPage page = service.store(r.type()).list(ns, null, s.predicate(), 0);
    List<CompletableFuture<StoredObject>> futures = new ArrayList<>();
    // As upstream, one item that may not be deleted fails the request but not the other items.
    ApiException[] refused = {null};
    for (StoredObject item : page.items()) {
      try {
        futures.add(
            service.delete(r.type(), item.namespace(), item.name(), o).thenApply(d -> d.object()));
      } catch (ApiException e) {
        if (e.code() != 404 && refused[0] == null) {
          refused[0] = e;
        }
      }
    }
    CompletableFuture<List<StoredObject>> all =
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
            .thenApply(v -> {
              if (refused[0] != null) {
                throw refused[0];
              }
              return futures.stream().map(CompletableFuture::join).toList();
            });
    respond(
        r,
        all,
        (resp, items) ->
            Responses.json(
                resp,
                200,
                Encoding.list(
                    r.type(),
                    r.version(),
                    new ListPage(items, service.storage().currentVersion(), null, 0))));
  }

  /** Writes the outcome of an asynchronous write on the request's context. */
  static <T> void respond(Request r, CompletableFuture<T> f, BiConsumer<Exchange, T> ok) {
    Context ctx = Vertx.currentContext();
    f.whenComplete((v, err) -> {
      Runnable write =
          () -> {
            r.warnings().writeTo(r.http());
            if (err == null) {
              ok.accept(r.http(), v);
            } else {
              ApiHandler.fail(r.http(), unwrap(err));
            }
          };
      if (ctx == null || Vertx.currentContext() == ctx) {
        write.run();
      } else {
        ctx.runOnContext(x -> write.run());
      }
    });
  }

  static Throwable unwrap(Throwable t) {
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  static Buffer empty() {
    return Buffer.buffer();
  }
}
