package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.storage.StoredObject;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import tools.jackson.databind.JsonNode;

/**
 * GET pods/NAME/log: the API server proxies to the kubelet of the pod's node, as upstream's LogREST
 * does: the node's InternalIP and {@code status.daemonEndpoints.kubeletEndpoint.Port}, path {@code
 * /containerLogs/<namespace>/<pod>/<container>}. jdra's kubelets serve plain HTTP. {@code
 * container} may be omitted for single-container pods; {@code tailLines} is applied here; {@code
 * follow} returns what has been written so far. Stateless apart from one HTTP client per Vert.x
 * instance.
 */
final class PodLog {
  private static final ConcurrentMap<Vertx, HttpClient> CLIENTS = new ConcurrentHashMap<>();

  private PodLog() {}

  static void get(ObjectService service, Request r) {
    JsonNode pod = Json.parseObject(service.get(r.type(), r.namespace(), r.name()).json());
    String container = container(r, pod);
    String nodeName = Json.text(pod, "spec.nodeName");
    if (nodeName == null || nodeName.isEmpty()) {
      throw ApiException.badRequest("pod " + r.name() + " does not have a host assigned");
    }
    var nodeType = service.registry().byKind("", "Node").orElseThrow();
    StoredObject nodeObj;
    try {
      nodeObj = service.get(nodeType, "", nodeName);
    } catch (ApiException e) {
      throw ApiException.badRequest("node " + nodeName + " of pod " + r.name() + " not found");
    }
    JsonNode node = Json.parseObject(nodeObj.json());
    String ip = internalIp(node);
    int port = node.at("/status/daemonEndpoints/kubeletEndpoint/Port").asInt(0);
    if (ip == null || port == 0) {
      throw ApiException.badRequest("node " + nodeName + " has no kubelet endpoint");
    }
    String path =
        "/containerLogs/" + enc(r.namespace()) + "/" + enc(r.name()) + "/" + enc(container);
    int tail = ResourceHandler.intParam(r, "tailLines");
    boolean hasTail = r.param("tailLines") != null;
    Exchange resp = r.http();
    Vertx vertx = Vertx.currentContext().owner();
    HttpClient client =
        CLIENTS.computeIfAbsent(
            vertx, v -> v.createHttpClient(new HttpClientOptions().setConnectTimeout(5000)));
    client
        .request(
            new RequestOptions().setMethod(HttpMethod.GET).setHost(ip).setPort(port).setURI(path))
        .compose(req ->
            req.send()
                .compose(res -> res.body().map(b -> new Object[] {res.statusCode(), b.toString()})))
        .onComplete(ar -> {
          if (ar.failed()) {
            ApiHandler.fail(
                resp,
                ApiException.internal(
                    "Get \"http://" + ip + ":" + port + path + "\": " + ar.cause().getMessage()));
            return;
          }
          int code = (int) ar.result()[0];
          String body = (String) ar.result()[1];
          if (code != 200) {
            ApiHandler.fail(resp, ApiException.badRequest(body.strip()));
            return;
          }
          resp.setStatusCode(200)
              .putHeader("Content-Type", "text/plain")
              .end(hasTail ? tail(body, tail) : body);
        });
  }

  /**
   * The container whose log is asked for: named, or the pod's only container. Init and ephemeral
   * containers have logs too, as upstream's pod log location allows.
   */
  private static String container(Request r, JsonNode pod) {
    String c = r.param("container");
    List<String> names = names(pod, "/spec/containers");
    List<String> init = names(pod, "/spec/initContainers");
    List<String> ephemeral = names(pod, "/spec/ephemeralContainers");
    if (c == null || c.isEmpty()) {
      if (names.size() == 1) {
        return names.get(0);
      }
      String msg =
          "a container name must be specified for pod "
              + r.name()
              + ", choose one of: "
              + list(names);
      if (!init.isEmpty()) {
        msg += " or one of the init containers: " + list(init);
      }
      if (!ephemeral.isEmpty()) {
        msg += " or one of the ephemeral containers: " + list(ephemeral);
      }
      throw ApiException.badRequest(msg);
    }
    if (!names.contains(c) && !init.contains(c) && !ephemeral.contains(c)) {
      throw ApiException.badRequest("container " + c + " is not valid for pod " + r.name());
    }
    return c;
  }

  private static List<String> names(JsonNode pod, String path) {
    List<String> names = new ArrayList<>();
    pod.at(path).forEach(n -> names.add(n.path("name").asString("")));
    return names;
  }

  /** As Go prints a []string: {@code [a b]}. */
  private static String list(List<String> names) {
    return "[" + String.join(" ", names) + "]";
  }

  private static String internalIp(JsonNode node) {
    for (JsonNode a : node.at("/status/addresses")) {
      if ("InternalIP".equals(a.path("type").asString(""))) {
        return a.path("address").asString("");
      }
    }
    return null;
  }

  private static String tail(String body, int lines) {
    String[] all = body.split("\n", -1);
    int n = all.length - (body.endsWith("\n") ? 1 : 0);
    int from = Math.max(0, n - lines);
    StringBuilder b = new StringBuilder();
    for (int i = from; i < n; i++) {
      b.append(all[i]).append('\n');
    }
    return b.toString();
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
