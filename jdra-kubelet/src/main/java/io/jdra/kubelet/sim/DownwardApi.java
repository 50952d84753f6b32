package io.jdra.kubelet.sim;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;

/**
 * The values of an env var's {@code valueFrom.fieldRef} (the downward API as the kubelet resolves
 * it for environment variables): the pod's identity, {@code metadata.labels['KEY']} and {@code
 * metadata.annotations['KEY']} (a Job's {@code JOB_COMPLETION_INDEX} reads the completion-index
 * annotation this way), the node name, service account, host and pod IP. A path the API server
 * would have refused, or a key the pod does not carry, gives the empty string, as the kubelet does
 * for a missing label or annotation.
 */
final class DownwardApi {
  private DownwardApi() {}

  static String value(Pod pod, String fieldPath, String podIp, String hostIp) {
    String annotation = subscript(fieldPath, "metadata.annotations");
    if (annotation != null) {
      return lookup(pod.getMetadata().getAnnotations(), annotation);
    }
    String label = subscript(fieldPath, "metadata.labels");
    if (label != null) {
      return lookup(pod.getMetadata().getLabels(), label);
    }
    return switch (fieldPath) {
      case "metadata.name" -> pod.getMetadata().getName();
      case "metadata.namespace" -> pod.getMetadata().getNamespace();
      case "metadata.uid" -> pod.getMetadata().getUid();
      case "spec.nodeName" -> orEmpty(pod.getSpec().getNodeName());
      case "spec.serviceAccountName" -> orEmpty(pod.getSpec().getServiceAccountName());
      case "status.podIP", "status.podIPs" -> orEmpty(podIp);
      case "status.hostIP", "status.hostIPs" -> orEmpty(hostIp);
      default -> "";
    };
  }

  /** The KEY of {@code prefix['KEY']}, or null when the path has another form. */
  private static String subscript(String path, String prefix) {
    String open = prefix + "['";
    if (path.startsWith(open) && path.endsWith("']") && path.length() > open.length() + 2) {
      return path.substring(open.length(), path.length() - 2);
    }
    return null;
  }

  private static String lookup(Map<String, String> map, String key) {
    return map == null ? "" : orEmpty(map.get(key));
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
