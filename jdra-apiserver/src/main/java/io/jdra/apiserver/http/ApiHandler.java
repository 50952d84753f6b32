package io.jdra.apiserver.http;

import io.jdra.api.validation.GoFormat;
import io.jdra.apiserver.auth.Authorizer;
import io.jdra.apiserver.auth.Decision;
import io.jdra.apiserver.auth.TokenAuthenticator;
import io.jdra.apiserver.auth.UserInfo;
import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.registry.ResourceRegistry;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.rest.Patching;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The HTTP entry point: authentication and authorization, health and discovery endpoints, body
 * reading with the size limit, routing to resources, and turning every failure into a Status (never
 * a 5xx for bad input). Thread-safe; runs on Vert.x event loops.
 */
public final class ApiHandler implements Handler<HttpServerRequest> {
  private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);

  /** Upstream's limit for request bodies (3 MiB). */
  public static final long MAX_BODY = 3 * 1024 * 1024;

  private final ResourceRegistry registry;
  private final Discovery discovery;
  private final OpenApi openApi;
  private final ResourceHandler resources;
  private final TokenAuthenticator authenticator;
  private final Authorizer authorizer;
  private final BooleanSupplier ready;
  private final BodyReader bodies;
  private final RequestMetrics metrics;

  /**
   * @param authenticator the users of bearer tokens, or null to serve every request as the admin
   * @param authorizer decides every resource request of an authenticated user
   * @param ready whether /readyz answers ok
   * @param timeouts how long a request body may take to arrive
   * @param metrics counts every request
   */
  public ApiHandler(
      ObjectService service,
      Patching patching,
      Vertx vertx,
      TokenAuthenticator authenticator,
      Authorizer authorizer,
      Duration bookmarkInterval,
      BooleanSupplier ready,
      HttpTimeouts timeouts,
      RequestMetrics metrics) {
    this.registry = service.registry();
    this.discovery = new Discovery(registry);
    this.openApi = new OpenApi(registry);
    this.resources =
        new ResourceHandler(
            service,
            patching,
            new Watches(service, vertx, bookmarkInterval, Duration.ofMinutes(30)));
    this.authenticator = authenticator;
    this.authorizer = authorizer;
    this.ready = ready;
    this.bodies = new BodyReader(vertx, timeouts.requestBody());
    this.metrics = metrics;
  }

  @Override
  public void handle(HttpServerRequest req) {
    handle(new VertxExchange(req));
  }

  /** Serves one exchange on the Vert.x context it runs on. */
  void handle(Exchange req) {
    RequestInfo info = RequestInfo.parse(req.path());
    metrics.observe(req, info);
    try {
      route(req, info);
    } catch (ApiException e) {
      Responses.error(req, e);
    } catch (RuntimeException | Error e) {
      // as upstream's panic recovery: even an OutOfMemoryError gets a 500, not silence
      fail(req, e);
    }
  }

  /** Writes a failure: a Status for ApiExceptions, a logged 500 for bugs. */
  static void fail(Exchange resp, Throwable t) {
    if (t instanceof ApiException e) {
      Responses.error(resp, e);
      return;
    }
    LOG.error("Request failed", t);
    if (resp.ended() || resp.closed()) {
      return;
    }
    if (resp.headWritten()) {
      resp.reset(); // a response half sent cannot become a Status: the client sees it fail
      return;
    }
    Responses.error(resp, ApiException.internal(String.valueOf(t)));
  }

  /** Serves {@code req}; {@code info} is its parsed path, null outside the resource API. */
  private void route(Exchange req, RequestInfo info) {
    String path = req.path();
    switch (path) {
      case "/healthz", "/livez" -> {
        Responses.text(req, 200, "ok");
        return;
      }
      case "/readyz" -> {
        boolean ok = ready.getAsBoolean();
        Responses.text(req, ok ? 200 : 500, ok ? "ok" : "[-]storage not ready");
        return;
      }
      default -> {}
    }
    UserInfo user = Impersonation.apply(authenticate(req), req.headers(), authorizer);
    if (discovery(req, path)) {
      return;
    }
    checkQuery(req);
    if (info == null) {
      throw ApiException.pathNotFound();
    }
    if (info.resource().isEmpty()) {
      ObjectNode list = discovery.resources(info.group(), info.version());
      if (list == null || req.method() != HttpMethod.GET) {
        throw ApiException.pathNotFound();
      }
      Responses.json(req, 200, list);
      return;
    }
    authorize(RequestAttributes.of(user, req, info));
    ResourceType type =
        registry
            .find(info.group(), info.version(), info.resource())
            .orElseThrow(ApiException::pathNotFound);
    if (!info.subresource().isEmpty() && !type.subresources().contains(info.subresource())) {
      throw ApiException.pathNotFound();
    }
    if (!info.namespace().isEmpty() && !type.namespaced()) {
      throw ApiException.pathNotFound();
    }
    bodies.read(
        req,
        body -> {
          Request r = new Request(req, info, type, body, user);
          try {
            resources.handle(r);
          } catch (RuntimeException e) {
            // warnings found before a synchronous failure still go out, as upstream's
            r.warnings().writeTo(req);
            throw e;
          }
        });
  }

  /** The user of the request's bearer token; 401 without a known one. */
  private UserInfo authenticate(Exchange req) {
    if (authenticator == null) {
      return UserInfo.admin();
    }
    return authenticator
        .authenticate(req.getHeader("Authorization"))
        .orElseThrow(ApiException::unauthorized);
  }

  /** 403 Forbidden in upstream's words unless an authorizer allows the request. */
  private void authorize(io.jdra.apiserver.auth.Attributes a) {
    Decision d = authorizer.authorize(a);
    if (d.allowed()) {
      return;
    }
    LOG.debug("Forbidden: {} ({})", a.forbiddenMessage(), d.reason());
    String why =
        d.reason().isEmpty() ? a.forbiddenMessage() : a.forbiddenMessage() + ": " + d.reason();
    throw ApiException.forbidden(a.apiGroup(), a.resource(), a.name(), why);
  }

  /** A query that does not decode (e.g. {@code %zz}) is the client's error, not a 500. */
  private static void checkQuery(Exchange req) {
    try {
      req.params();
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(
          "invalid query " + GoFormat.quote(req.query()) + ": " + e.getMessage());
    }
  }

  private boolean discovery(Exchange req, String path) {
    if (req.method() != HttpMethod.GET) {
      return false;
    }
    String accept = req.getHeader("Accept");
    boolean aggregated = accept != null && accept.contains("as=APIGroupDiscoveryList");
    switch (path) {
      case "/version", "/version/" -> Responses.json(req, 200, Discovery.version());
      case "/api", "/api/" -> {
        if (aggregated) {
          Responses.json(req, 200, Discovery.AGGREGATED_TYPE, discovery.aggregated(true));
        } else {
          Responses.json(req, 200, discovery.coreVersions());
        }
      }
      case "/apis", "/apis/" -> {
        if (aggregated) {
          Responses.json(req, 200, Discovery.AGGREGATED_TYPE, discovery.aggregated(false));
        } else {
          Responses.json(req, 200, discovery.groups());
        }
      }
      case "/openapi/v3", "/openapi/v3/" -> Responses.json(req, 200, openApi.root());
      case "/openapi/v2", "/openapi/v2/" -> {
        req.putHeader("Vary", "Accept");
        if (SwaggerAccept.json(accept)) {
          Responses.json(req, 200, openApi.swagger());
        } else if (SwaggerAccept.protobuf(accept)) {
          // kubectl asks for this only for kinds /openapi/v3 does not describe (a kind the server
          // does not serve): an empty document makes it skip client-side validation, so that the
          // apply fails with "no matches for kind", as against kube-apiserver.
          req.setStatusCode(200)
              .putHeader("Content-Type", SwaggerAccept.PROTOBUF)
              .end(io.vertx.core.buffer.Buffer.buffer(SwaggerAccept.emptyProtobufDocument()));
        } else {
          req.setStatusCode(406).end();
        }
      }
      default -> {
        if (path.startsWith("/openapi/v3/")) {
          ObjectNode doc = openApi.groupVersion(path.substring("/openapi/v3/".length()));
          if (doc == null) {
            throw ApiException.pathNotFound();
          }
          Responses.json(req, 200, doc);
          return true;
        }
        if (path.startsWith("/apis/") && path.indexOf('/', 6) < 0) {
          ObjectNode g = discovery.group(path.substring(6));
          if (g == null) {
            throw ApiException.pathNotFound();
          }
          Responses.json(req, 200, g);
          return true;
        }
        return false;
      }
    }
    return true;
  }
}
