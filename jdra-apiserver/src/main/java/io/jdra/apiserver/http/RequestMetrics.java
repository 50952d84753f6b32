package io.jdra.apiserver.http;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.http.HttpMethod;
import java.util.List;

/**
 * kube-apiserver's {@code apiserver_request_total}: every API request once its response has been
 * written, by verb (upstream's reported verbs: GET, LIST, WATCH, POST, PUT, PATCH, APPLY, DELETE,
 * DELETECOLLECTION, CONNECT), dry_run, group, version, resource, subresource, scope, component and
 * HTTP code. A watch counts when its response ends; one the client drops is not counted.
 * Thread-safe.
 */
public final class RequestMetrics {
  /** The apply patch's content type, which upstream reports as the verb APPLY. */
  private static final String APPLY_PATCH = "application/apply-patch+yaml";

  /** Methods of the pod subresources upstream reports as CONNECT (exec, attach, portforward). */
  private static final List<String> CONNECT_SUBRESOURCES =
      List.of("exec", "attach", "portforward", "proxy");

  private final Counter requests;

  public RequestMetrics(PrometheusRegistry registry) {
    requests =
        Counter.builder()
            .name("apiserver_request_total")
            .help(
                "Counter of apiserver requests by verb, dry run value, group, version, resource,"
                    + " scope, component and HTTP response code.")
            .labelNames(
                "verb",
                "dry_run",
                "group",
                "version",
                "resource",
                "subresource",
                "scope",
                "component",
                "code")
            .register(registry);
  }

  /** Counts {@code req} when its response body has been written. */
  void observe(Exchange req, RequestInfo info) {
    String verb = verb(req, info);
    String dryRun = dryRun(req);
    req.bodyEndHandler(() -> {
      CounterDataPoint c =
          requests.labelValues(
              verb,
              dryRun,
              info == null ? "" : info.group(),
              info == null ? "" : info.version(),
              info == null ? "" : info.resource(),
              info == null ? "" : info.subresource(),
              scope(info),
              "apiserver",
              Integer.toString(req.getStatusCode()));
      c.inc();
    });
  }

  /** Upstream's reported verb: the HTTP method made canonical by the request's scope. */
  static String verb(Exchange req, RequestInfo info) {
    HttpMethod m = req.method();
    if (info == null || info.resource().isEmpty()) {
      return m.name();
    }
    boolean collection = info.name().isEmpty();
    if (m == HttpMethod.GET) {
      if (CONNECT_SUBRESOURCES.contains(info.subresource())) {
        return "CONNECT";
      }
      if (isWatch(req)) {
        return "WATCH";
      }
      return collection ? "LIST" : "GET";
    }
    if (m == HttpMethod.DELETE) {
      return collection ? "DELETECOLLECTION" : "DELETE";
    }
    if (m == HttpMethod.PATCH) {
      String type = req.getHeader("Content-Type");
      return type != null && type.startsWith(APPLY_PATCH) ? "APPLY" : "PATCH";
    }
    if (m == HttpMethod.POST && CONNECT_SUBRESOURCES.contains(info.subresource())) {
      return "CONNECT";
    }
    return m.name();
  }

  private static boolean isWatch(Exchange req) {
    List<String> w = params(req, "watch");
    return !w.isEmpty() && (w.get(0).equals("true") || w.get(0).equals("1"));
  }

  /** The request's dryRun values, sorted and comma-joined as upstream's label; "" without. */
  private static String dryRun(Exchange req) {
    List<String> values = params(req, "dryRun");
    if (values.isEmpty()) {
      return "";
    }
    return String.join(",", values.stream().sorted().toList());
  }

  /** The values of a query parameter; none when the query does not decode (a 400 follows). */
  private static List<String> params(Exchange req, String name) {
    try {
      return req.params().getAll(name);
    } catch (IllegalArgumentException e) {
      return List.of();
    }
  }

  /** resource (a named object), namespace, cluster; "" for requests outside the resource API. */
  private static String scope(RequestInfo info) {
    if (info == null || info.resource().isEmpty()) {
      return "";
    }
    if (!info.name().isEmpty()) {
      return "resource";
    }
    return info.namespace().isEmpty() ? "cluster" : "namespace";
  }
}
