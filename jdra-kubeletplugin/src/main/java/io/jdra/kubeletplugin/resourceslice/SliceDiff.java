package io.jdra.kubeletplugin.resourceslice;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Semantic comparison of slice specs, as upstream's apiequality.Semantic.DeepEqual on the fields
 * the controller owns: on the JSON form with empty lists, empty objects and nulls removed (fabric8
 * models turn an absent list into an empty one, Go keeps nil), and with taint {@code timeAdded}
 * ignored (the server sets it; upstream treats a nil time as equal to any).
 */
final class SliceDiff {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private SliceDiff() {}

  /** Equal for everything the controller writes: pool, node fields, devices, counters. */
  static boolean sameSpec(ResourceSliceSpec a, ResourceSliceSpec b) {
    return normal(a).equals(normal(b));
  }

  /** Equal in devices, shared counters and per-device node selection (what a server may drop). */
  static boolean sameContent(ResourceSliceSpec desired, ResourceSliceSpec actual) {
    Map<String, Object> a = normal(desired);
    Map<String, Object> b = normal(actual);
    for (String f : List.of("devices", "sharedCounters", "perDeviceNodeSelection")) {
      if (!java.util.Objects.equals(a.get(f), b.get(f))) {
        return false;
      }
    }
    return true;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> normal(ResourceSliceSpec spec) {
    Map<String, Object> m = JSON.convertValue(spec, Map.class);
    prune(m, false);
    return m;
  }

  @SuppressWarnings("unchecked")
  private static boolean prune(Object o, boolean inTaint) {
    if (o == null) {
      return true;
    }
    if (o instanceof Map<?, ?> map) {
      Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<?, ?> e = it.next();
        boolean taints = "taints".equals(e.getKey());
        if ((inTaint && "timeAdded".equals(e.getKey())) || prune(e.getValue(), taints)) {
          it.remove();
        }
      }
      return map.isEmpty();
    }
    if (o instanceof List<?> list) {
      for (Object item : list) {
        prune(item, inTaint);
      }
      return list.isEmpty();
    }
    return false;
  }
}
