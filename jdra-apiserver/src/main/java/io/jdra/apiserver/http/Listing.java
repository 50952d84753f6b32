package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.storage.ListPage;
import io.jdra.apiserver.storage.StorageException;
import io.vertx.core.Vertx;

/**
 * Serves list requests with upstream's resourceVersion semantics: "" and "0" read the current state
 * ("0" ignores limit, as the watch cache does), NotOlderThan waits for the version and reads the
 * current state, Exact (and the legacy rv-with-limit form) reads the state at that version, and
 * continue tokens read the state of the first page. Thread-safe (stateless beyond the service).
 */
final class Listing {
  static final String LIST_TOO_OLD = "The resourceVersion for the provided list is too old.";
  static final String CONTINUE_TOO_OLD =
      "The provided continue parameter is too old to display a consistent list result. You can"
          + " start a new list without the continue parameter, or use the continue token in this"
          + " response to retrieve the remainder of the results. Continuing with the provided token"
          + " results in an inconsistent list - objects that were created, modified, or deleted"
          + " between the time the first chunk was returned and now may show up in the list.";

  private final ObjectService service;

  Listing(ObjectService service) {
    this.service = service;
  }

  /**
   * Which state one list request reads.
   *
   * @param atVersion the resourceVersion to read at, 0 for the current state
   * @param required the resourceVersion the server must have reached first (0 for none)
   * @param token the continue token, or null
   * @param limit page size, 0 for all
   */
  record Plan(long atVersion, long required, ContinueToken token, int limit) {
    static Plan of(ListOptions o) {
      String rvText = o.resourceVersion();
      int limit = rvText.equals("0") ? 0 : o.limit();
      if (!o.continueToken().isEmpty()) {
        ContinueToken token = ContinueToken.decode(o.continueToken());
        if (!rvText.isEmpty() && !rvText.equals("0")) {
          throw ApiException.badRequest(
              "specifying resource version is not allowed when using continue");
        }
        long at = Math.max(token.resourceVersion(), 0);
        return new Plan(at, at, token, limit);
      }
      long rv = ResourceVersions.parse(rvText);
      boolean exact =
          o.resourceVersionMatch().equals(ListOptions.EXACT)
              || (o.resourceVersionMatch().isEmpty() && limit > 0 && rv > 0);
      return new Plan(exact ? rv : 0, rv, null, limit);
    }
  }

  void list(Request r, ResourceHandler.Selectors selectors) {
    Plan plan = Plan.of(ListOptions.of(r, false));
    Runnable read =
        () -> {
          try {
            respond(r, selectors, plan);
          } catch (RuntimeException e) {
            ApiHandler.fail(r.http(), e);
          }
        };
    ResourceVersions.awaitFresh(
        Vertx.currentContext().owner(),
        service.storage()::currentVersion,
        plan.required(),
        read,
        e -> Responses.error(r.http(), e));
  }

  private void respond(Request r, ResourceHandler.Selectors selectors, Plan plan) {
    String ns = r.type().namespaced() ? r.namespace() : "";
    String prefix = ns.isEmpty() ? "" : ns + "/";
    String from = plan.token() == null ? null : plan.token().fromKey(prefix);
    ListPage page;
    try {
      page =
          service
              .store(r.type())
              .listAt(plan.atVersion(), ns, from, selectors.predicate(), plan.limit());
    } catch (StorageException.Gone g) {
      throw plan.token() == null
          ? ApiException.gone(LIST_TOO_OLD)
          : ApiException.gone(CONTINUE_TOO_OLD)
              .withContinue(plan.token().onCurrentState().encode());
    }
    String cont =
        page.nextKey() == null
            ? null
            : ContinueToken.after(prefix, page.nextKey(), page.version()).encode();
    // As upstream, the count is only given when every listed object matched (no selectors).
    long remaining = selectors.isEmpty() ? page.remaining() : -1;
    // what the page shows must be durable before a client sees it
    ResourceHandler.respond(
        r,
        service.storage().durable(),
        (resp, v) -> {
          if (r.wantsTable()) {
            Responses.json(
                resp,
                200,
                Encoding.table(
                    r.type(), r.version(), page, cont, remaining, service.clock().instant()));
          } else {
            ListStream.send(resp, r.type(), r.version(), page, cont, remaining);
          }
        });
  }
}
