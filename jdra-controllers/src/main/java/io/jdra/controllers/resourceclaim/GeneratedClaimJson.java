package io.jdra.controllers.resourceclaim;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.api.resourceclaim.ResourceClaims;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JSON of the claim {@link GeneratedClaims#newClaim} describes, as the create request's body.
 * Building that claim (its spec copied through builders) and encoding it by reflection was a fifth
 * of the workers' time in a burst of 5,000 pods; here the metadata is written directly and the
 * template's spec is encoded once per template object (informer objects are immutable, so a
 * template changed in the API server is a new object and encoded anew). The result is the JSON of
 * {@code newClaim}'s claim, field for field (SmallPartsTest compares them). Thread-safe.
 */
final class GeneratedClaimJson {
  /**
   * Encoded specs kept at most; past it the cache starts over (templates deleted in the API server
   * are never looked up again, and a namespace rarely has more than a few).
   */
  static final int MAX_TEMPLATES = 1000;

  private final KubernetesSerialization serialization;
  private final Map<String, Spec> specs = new ConcurrentHashMap<>();

  private record Spec(ResourceClaimTemplate template, String json) {}

  GeneratedClaimJson(KubernetesSerialization serialization) {
    this.serialization = serialization;
  }

  /** The create body of the claim for {@code podClaim} of {@code pod} from {@code template}. */
  String write(Pod pod, PodResourceClaim podClaim, ResourceClaimTemplate template) {
    ObjectMeta templateMeta = template.getSpec().getMetadata();
    Map<String, String> annotations = new LinkedHashMap<>();
    if (templateMeta != null && templateMeta.getAnnotations() != null) {
      annotations.putAll(templateMeta.getAnnotations());
    }
    annotations.put(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, podClaim.getName());
    Map<String, String> labels = templateMeta == null ? null : templateMeta.getLabels();
    String podName = pod.getMetadata().getName();

    StringBuilder out = new StringBuilder(768);
    out.append("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{");
    JsonText.object(JsonText.string(out, "annotations").append(':'), annotations).append(',');
    JsonText.property(out, "generateName", ResourceClaims.generateName(podName, podClaim.getName()))
        .append(',');
    if (labels != null && !labels.isEmpty()) {
      JsonText.object(JsonText.string(out, "labels").append(':'), labels).append(',');
    }
    JsonText.property(out, "namespace", pod.getMetadata().getNamespace()).append(',');
    out.append("\"ownerReferences\":[{\"apiVersion\":\"v1\",\"blockOwnerDeletion\":true,")
        .append("\"controller\":true,\"kind\":\"Pod\",");
    JsonText.property(out, "name", podName);
    if (pod.getMetadata().getUid() != null) {
      JsonText.property(out.append(','), "uid", pod.getMetadata().getUid());
    }
    out.append("}]}");
    String spec = spec(template);
    if (spec != null) {
      out.append(",\"spec\":").append(spec);
    }
    return out.append('}').toString();
  }

  /** The template's claim spec as JSON, or null when it has none (the claim then has none). */
  private String spec(ResourceClaimTemplate template) {
    if (template.getSpec().getSpec() == null) {
      return null;
    }
    String key = template.getMetadata().getNamespace() + "/" + template.getMetadata().getName();
    Spec cached = specs.get(key);
    if (cached != null && cached.template() == template) {
      return cached.json();
    }
    String json = serialization.asJson(template.getSpec().getSpec());
    if (specs.size() >= MAX_TEMPLATES) {
      specs.clear();
    }
    specs.put(key, new Spec(template, json));
    return json;
  }
}
