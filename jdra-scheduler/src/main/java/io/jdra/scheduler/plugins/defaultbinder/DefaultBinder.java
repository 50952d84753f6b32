package io.jdra.scheduler.plugins.defaultbinder;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.jdra.runtime.Ctx;
import io.jdra.scheduler.framework.BindPlugin;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.Status;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Writes a {@code Binding} to the pod's {@code binding} subresource (upstream DefaultBinder), with
 * the pod's UID as precondition so a recreated pod of the same name is never bound by mistake.
 */
public final class DefaultBinder implements BindPlugin {
  public static final String NAME = "DefaultBinder";

  private final KubernetesClient client;

  public DefaultBinder(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status bind(Ctx ctx, CycleState state, PodInfo pod, String nodeName) {
    Pod p = pod.pod();
    ctx.logger().v(3).info("Attempting to bind pod to node", "pod", pod.key(), "node", nodeName);
    String ns = p.getMetadata().getNamespace();
    String name = p.getMetadata().getName();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("apiVersion", "v1");
    body.put("kind", "Binding");
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("name", name);
    meta.put("namespace", ns);
    meta.put("uid", p.getMetadata().getUid());
    body.put("metadata", meta);
    body.put("target", Map.of("apiVersion", "v1", "kind", "Node", "name", nodeName));
    String url =
        client.getMasterUrl().toString().replaceAll("/$", "")
            + "/api/v1/namespaces/"
            + enc(ns)
            + "/pods/"
            + enc(name)
            + "/binding";
    HttpClient http = client.getHttpClient();
    HttpRequest req =
        http.newHttpRequestBuilder()
            .uri(url)
            .post("application/json", Serialization.asJson(body))
            .build();
    try {
      HttpResponse<String> resp = http.sendAsync(req, String.class).get(30, TimeUnit.SECONDS);
      if (resp.code() >= 200 && resp.code() < 300) {
        return null;
      }
      return Status.error(
          "binding pod "
              + pod.key()
              + " to node "
              + nodeName
              + ": HTTP "
              + resp.code()
              + ": "
              + resp.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Status.error("binding pod " + pod.key() + ": interrupted");
    } catch (Exception e) {
      return Status.error(
          new RuntimeException("binding pod " + pod.key() + ": " + e.getMessage(), e));
    }
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
