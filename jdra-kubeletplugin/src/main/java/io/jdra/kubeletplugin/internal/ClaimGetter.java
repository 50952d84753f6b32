package io.jdra.kubeletplugin.internal;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One GET of a ResourceClaim from the API server, as upstream's helper does for every claim of
 * every NodePrepareResources call (no cache: the claim is read as it is now). It goes through the
 * client's HTTP client (same authentication, retries and connection pool) with the URL put together
 * once: the client's generic resource operation spent about as much CPU on building the request URL
 * and its per-call configuration as the driver spent on writing the CDI spec.
 */
final class ClaimGetter {
  private final HttpClient http;
  private final KubernetesSerialization serialization;
  private final String namespaces;
  private final long timeoutMillis;

  ClaimGetter(KubernetesClient client) {
    this.http = client.getHttpClient();
    this.serialization = client.getKubernetesSerialization();
    String master = client.getMasterUrl().toString();
    this.namespaces =
        (master.endsWith("/") ? master : master + "/") + "apis/resource.k8s.io/v1/namespaces/";
    int timeout = client.getConfiguration().getRequestTimeout();
    this.timeoutMillis = timeout > 0 ? timeout : TimeUnit.SECONDS.toMillis(10);
  }

  /**
   * The claim, or null when there is none of that name.
   *
   * @throws IllegalStateException the API server did not answer with the claim (message has the
   *     HTTP status and the API server's message)
   */
  ResourceClaim get(String namespace, String name) {
    HttpRequest req =
        http.newHttpRequestBuilder()
            .uri(namespaces + segment(namespace) + "/resourceclaims/" + segment(name))
            .build();
    HttpResponse<byte[]> resp;
    try {
      resp = http.sendAsync(req, byte[].class).get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new IllegalStateException(String.valueOf(cause.getMessage()), cause);
    } catch (TimeoutException e) {
      throw new IllegalStateException("no answer within " + timeoutMillis + " ms", e);
    }
    if (resp.code() == 404) {
      return null;
    }
    byte[] body = resp.body() == null ? new byte[0] : resp.body();
    if (resp.code() / 100 != 2) {
      throw new IllegalStateException("HTTP " + resp.code() + ": " + statusMessage(body));
    }
    return serialization.unmarshal(new ByteArrayInputStream(body), ResourceClaim.class);
  }

  private String statusMessage(byte[] body) {
    try {
      Status s = serialization.unmarshal(new ByteArrayInputStream(body), Status.class);
      if (s != null && s.getMessage() != null) {
        return s.getMessage();
      }
    } catch (RuntimeException e) {
      // Not a Status: the body as it came.
    }
    return new String(body, StandardCharsets.UTF_8);
  }

  /** Namespaces and names are DNS labels and subdomains; encoded anyway, as a path segment. */
  private static String segment(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
