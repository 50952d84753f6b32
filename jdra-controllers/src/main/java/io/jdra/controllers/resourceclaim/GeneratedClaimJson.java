package io.jdra.controllers.resourceclaim;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.api.resourceclaim.ResourceClaims;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JSON of the claim {@link GeneratedClaims#newClaim} describes, as the create request's body.
 * Building that claim (its spec copied through builders) and encoding it by reflection was a fifth
 * of the workers' time in a burst of 5,000 pods; here what a template contributes (its labels, its
 * annotations, its claim spec, and whether it asks for admin access or a prioritized list) is
 * written once per template object, and only the pod's parts per claim (informer objects are
 * immutable, so a template changed in the API server is a new object and written anew). The result
 * is the JSON of {@code newClaim}'s claim, field for field (SmallPartsTest compares them).
 * Thread-safe.
 */
final class GeneratedClaimJson {
  /**
   * Templates kept at most; past it the cache starts over (templates deleted in the API server are
   * never looked up again, and a namespace rarely has more than a few).
   */
  static final int MAX_TEMPLATES = 1000;

  private static final String HEAD =
      "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{"
          + "\"annotations\":{";

  private final KubernetesSerialization serialization;
  private final Map<String, Template> templates = new ConcurrentHashMap<>();

  GeneratedClaimJson(KubernetesSerialization serialization) {
    this.serialization = serialization;
  }

  /**
   * What one template object contributes to every claim generated from it, written once.
   *
   * @param annotations the template's annotations as {@code "k":"v",} pairs, without the
   *     pod-claim-name annotation (each claim sets that one)
   * @param labels {@code "labels":{...},}, or empty when the template has none
   * @param spec the claim spec's JSON, or null when the template has none (the claim then has none)
   * @param adminAccess upstream needsAdminAccess
   * @param prioritizedList upstream hasPrioritizedList
   */
  record Template(
      ResourceClaimTemplate template,
      String annotations,
      String labels,
      String spec,
      boolean adminAccess,
      boolean prioritizedList) {

    /** The create body of the claim for {@code podClaim} of {@code pod}. */
    String write(Pod pod, PodResourceClaim podClaim) {
      String podName = pod.getMetadata().getName();
      StringBuilder out =
          new StringBuilder(
              320 + annotations.length() + labels.length() + (spec == null ? 0 : spec.length()));
      out.append(HEAD).append(annotations);
      JsonText.property(out, ResourceClaims.POD_CLAIM_NAME_ANNOTATION, podClaim.getName())
          .append("},");
      JsonText.property(
              out, "generateName", ResourceClaims.generateName(podName, podClaim.getName()))
          .append(',');
      out.append(labels);
      JsonText.property(out, "namespace", pod.getMetadata().getNamespace()).append(',');
      out.append("\"ownerReferences\":[{\"apiVersion\":\"v1\",\"blockOwnerDeletion\":true,")
          .append("\"controller\":true,\"kind\":\"Pod\",");
      JsonText.property(out, "name", podName);
      if (pod.getMetadata().getUid() != null) {
        JsonText.property(out.append(','), "uid", pod.getMetadata().getUid());
      }
      out.append("}]}");
      if (spec != null) {
        out.append(",\"spec\":").append(spec);
      }
      return out.append('}').toString();
    }
  }

  /** The create body of the claim for {@code podClaim} of {@code pod} from {@code template}. */
  String write(Pod pod, PodResourceClaim podClaim, ResourceClaimTemplate template) {
    return template(template).write(pod, podClaim);
  }

  /** The parts of this template object, written on its first use. */
  Template template(ResourceClaimTemplate template) {
    String key = template.getMetadata().getNamespace() + "/" + template.getMetadata().getName();
    Template cached = templates.get(key);
    if (cached != null && cached.template() == template) {
      return cached;
    }
    Template written = writeParts(template);
    if (templates.size() >= MAX_TEMPLATES) {
      templates.clear();
    }
    templates.put(key, written);
    return written;
  }

  private Template writeParts(ResourceClaimTemplate template) {
    ObjectMeta meta = template.getSpec().getMetadata();
    StringBuilder annotations = new StringBuilder();
    if (meta != null && meta.getAnnotations() != null) {
      for (Map.Entry<String, String> e : meta.getAnnotations().entrySet()) {
        // The claim's own value replaces the template's (newClaim puts it over the copy).
        if (!e.getKey().equals(ResourceClaims.POD_CLAIM_NAME_ANNOTATION)) {
          JsonText.property(annotations, e.getKey(), e.getValue()).append(',');
        }
      }
    }
    StringBuilder labels = new StringBuilder();
    if (meta != null && meta.getLabels() != null && !meta.getLabels().isEmpty()) {
      JsonText.object(JsonText.string(labels, "labels").append(':'), meta.getLabels()).append(',');
    }
    String spec =
        template.getSpec().getSpec() == null
            ? null
            : serialization.asJson(template.getSpec().getSpec());
    return new Template(
        template,
        annotations.toString(),
        labels.toString(),
        spec,
        GeneratedClaims.needsAdminAccess(template),
        GeneratedClaims.hasPrioritizedList(template));
  }
}
