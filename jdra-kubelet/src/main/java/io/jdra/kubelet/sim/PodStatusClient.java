package io.jdra.kubelet.sim;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The status manager's two requests per write, as upstream's syncPod sends them: a GET of the pod
 * and a strategic merge patch of its status subresource. They go through the client's HTTP client
 * (same authentication, retries and connection pool) with JSON trees instead of the client's typed
 * operations: the status manager works on the status as JSON, so decoding the pod into objects and
 * converting it back, and decoding the patched pod that the server returns only to drop it, was
 * work for nothing on every pod start.
 */
final class PodStatusClient implements StatusManager.PodClient {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String SMP = "application/strategic-merge-patch+json";

  private final HttpClient http;
  private final String namespaces;
  private final long timeoutMillis;

  PodStatusClient(KubernetesClient client) {
    this.http = client.getHttpClient();
    String master = client.getMasterUrl().toString();
    this.namespaces = (master.endsWith("/") ? master : master + "/") + "api/v1/namespaces/";
    int timeout = client.getConfiguration().getRequestTimeout();
    this.timeoutMillis = timeout > 0 ? timeout : TimeUnit.SECONDS.toMillis(10);
  }

  @Override
  public StatusManager.ServerPod get(String namespace, String name) {
    HttpResponse<byte[]> resp =
        send(http.newHttpRequestBuilder().uri(url(namespace, name)).build());
    if (resp.code() == 404) {
      return null;
    }
    check(resp, "get pod " + namespace + "/" + name);
    JsonNode pod = JSON.readTree(resp.body());
    JsonNode status = pod.get("status");
    return new StatusManager.ServerPod(
        pod.path("metadata").path("uid").asString(),
        status instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode());
  }

  @Override
  public void patchStatus(String namespace, String name, String patch) {
    HttpRequest req =
        http.newHttpRequestBuilder()
            .uri(url(namespace, name) + "/status")
            .method("PATCH", SMP, patch)
            .build();
    check(send(req), "patch status of pod " + namespace + "/" + name);
  }

  private String url(String namespace, String name) {
    return namespaces + segment(namespace) + "/pods/" + segment(name);
  }

  private HttpResponse<byte[]> send(HttpRequest req) {
    try {
      return http.sendAsync(req, byte[].class).get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new KubernetesClientException(String.valueOf(cause.getMessage()), cause);
    } catch (TimeoutException e) {
      throw new KubernetesClientException("no answer within " + timeoutMillis + " ms", e);
    }
  }

  /** Fails with the HTTP code (404 is how the status manager learns the pod is gone). */
  private static void check(HttpResponse<byte[]> resp, String what) {
    if (resp.code() / 100 == 2) {
      return;
    }
    String message = resp.body() == null ? "" : new String(resp.body(), StandardCharsets.UTF_8);
    try {
      JsonNode status = JSON.readTree(resp.body());
      if (status.hasNonNull("message")) {
        message = status.get("message").asString();
      }
    } catch (RuntimeException e) {
      // Not a Status: the body as it came.
    }
    throw new KubernetesClientException(
        what + ": HTTP " + resp.code() + ": " + message, resp.code(), null);
  }

  /** Namespaces and names are DNS labels and subdomains; encoded anyway, as a path segment. */
  private static String segment(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
