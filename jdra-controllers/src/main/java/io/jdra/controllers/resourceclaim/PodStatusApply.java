package io.jdra.controllers.resourceclaim;

import java.util.Map;

/**
 * The server-side apply configuration for {@code pod.status.resourceClaimStatuses} (upstream's
 * corev1apply.Pod(...).WithStatus(...)): only name, namespace and the entries this controller owns.
 * Written as JSON directly: building a Pod and encoding it by reflection cost a tenth of the
 * workers' time in a burst of 5,000 pods.
 */
final class PodStatusApply {
  private PodStatusApply() {}

  static String json(String namespace, String name, Map<String, String> claimNames) {
    StringBuilder out = new StringBuilder(160 + 64 * claimNames.size());
    out.append("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{");
    JsonText.property(out, "name", name).append(',');
    JsonText.property(out, "namespace", namespace).append("},\"status\":{");
    out.append("\"resourceClaimStatuses\":[");
    boolean first = true;
    for (Map.Entry<String, String> e : claimNames.entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      out.append('{');
      JsonText.property(out, "name", e.getKey()).append(',');
      JsonText.property(out, "resourceClaimName", e.getValue()).append('}');
    }
    return out.append("]}}").toString();
  }
}
