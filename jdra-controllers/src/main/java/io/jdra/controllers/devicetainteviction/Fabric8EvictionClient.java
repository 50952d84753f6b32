package io.jdra.controllers.devicetainteviction;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** {@link EvictionClient} over a fabric8 client. */
final class Fabric8EvictionClient implements EvictionClient {
  private final KubernetesClient client;

  Fabric8EvictionClient(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public Optional<Pod> getPod(String namespace, String name) {
    return Optional.ofNullable(client.pods().inNamespace(namespace).withName(name).get());
  }

  @Override
  public void setPodCondition(Pod pod, PodCondition condition) {
    // Only the condition (merged by type) and the UID as precondition, as upstream's
    // PatchPodStatus does with a strategic merge patch.
    Pod patch =
        new PodBuilder()
            .withNewMetadata()
            .withUid(pod.getMetadata().getUid())
            .endMetadata()
            .withNewStatus()
            .addToConditions(condition)
            .endStatus()
            .build();
    client
        .pods()
        .inNamespace(pod.getMetadata().getNamespace())
        .withName(pod.getMetadata().getName())
        .subresource("status")
        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
  }

  @Override
  public boolean deletePod(PodRef pod) {
    // fabric8's DSL has no UID precondition: send DeleteOptions as upstream's client does.
    DeleteOptions options =
        new DeleteOptionsBuilder()
            .withNewPreconditions()
            .withUid(pod.uid())
            .endPreconditions()
            .build();
    String url =
        client.getMasterUrl().toString().replaceAll("/+$", "")
            + "/api/v1/namespaces/"
            + encode(pod.namespace())
            + "/pods/"
            + encode(pod.name());
    try {
      // raw() answers null for 404.
      return client.raw(url, "DELETE", options) != null;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND
          || e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        // Gone, or the UID precondition failed: another pod owns the name now.
        return false;
      }
      throw e;
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Override
  public boolean applyRuleCondition(
      String name, String uid, Condition condition, String fieldManager) {
    DeviceTaintRule apply =
        new DeviceTaintRuleBuilder()
            .withNewMetadata()
            .withName(name)
            .withUid(uid)
            .endMetadata()
            .withNewStatus()
            .addToConditions(condition)
            .endStatus()
            .build();
    try {
      client
          .resources(DeviceTaintRule.class)
          .withName(name)
          .subresource("status")
          .patch(
              new PatchContext.Builder()
                  .withPatchType(PatchType.SERVER_SIDE_APPLY)
                  .withFieldManager(fieldManager)
                  .withForce(true)
                  .build(),
              apply);
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND
          || e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        return false;
      }
      throw e;
    }
  }
}
