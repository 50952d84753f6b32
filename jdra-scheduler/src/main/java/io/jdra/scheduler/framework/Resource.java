package io.jdra.scheduler.framework;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.HashMap;
import java.util.Map;

/**
 * An amount of node resources (upstream {@code framework.Resource}): milli-CPU, memory and
 * ephemeral storage in bytes, a pod count, and scalar resources (extended resources, hugepages) by
 * name. Immutable.
 */
public record Resource(
    long milliCpu,
    long memory,
    long ephemeralStorage,
    long allowedPodNumber,
    Map<String, Long> scalar) {

  public static final String CPU = "cpu";
  public static final String MEMORY = "memory";
  public static final String EPHEMERAL_STORAGE = "ephemeral-storage";
  public static final String PODS = "pods";

  public static final Resource ZERO = new Resource(0, 0, 0, 0, Map.of());

  public Resource {
    scalar = Map.copyOf(scalar);
  }

  /** From a resource list (node allocatable, container requests); quantities as the API parses. */
  public static Resource of(Map<String, Quantity> list) {
    if (list == null || list.isEmpty()) {
      return ZERO;
    }
    long cpu = 0;
    long mem = 0;
    long eph = 0;
    long pods = 0;
    Map<String, Long> scalar = new HashMap<>();
    for (Map.Entry<String, Quantity> e : list.entrySet()) {
      io.jdra.api.quantity.Quantity q = io.jdra.api.quantity.Quantity.of(e.getValue());
      switch (e.getKey()) {
        case CPU -> cpu = q.milliValue();
        case MEMORY -> mem = q.value();
        case EPHEMERAL_STORAGE -> eph = q.value();
        case PODS -> pods = q.value();
        default -> scalar.put(e.getKey(), q.value());
      }
    }
    return new Resource(cpu, mem, eph, pods, scalar);
  }

  public Resource plus(Resource o) {
    return new Resource(
        milliCpu + o.milliCpu,
        memory + o.memory,
        ephemeralStorage + o.ephemeralStorage,
        allowedPodNumber + o.allowedPodNumber,
        merge(scalar, o.scalar, 1));
  }

  public Resource minus(Resource o) {
    return new Resource(
        milliCpu - o.milliCpu,
        memory - o.memory,
        ephemeralStorage - o.ephemeralStorage,
        allowedPodNumber - o.allowedPodNumber,
        merge(scalar, o.scalar, -1));
  }

  /** Per dimension maximum (init containers run one after another). */
  public Resource max(Resource o) {
    Map<String, Long> s = new HashMap<>(scalar);
    o.scalar.forEach((k, v) -> s.merge(k, v, Math::max));
    return new Resource(
        Math.max(milliCpu, o.milliCpu),
        Math.max(memory, o.memory),
        Math.max(ephemeralStorage, o.ephemeralStorage),
        Math.max(allowedPodNumber, o.allowedPodNumber),
        s);
  }

  public long scalar(String name) {
    Long v = scalar.get(name);
    return v == null ? 0 : v;
  }

  private static Map<String, Long> merge(Map<String, Long> a, Map<String, Long> b, int sign) {
    if (b.isEmpty()) {
      return a;
    }
    Map<String, Long> s = new HashMap<>(a);
    b.forEach((k, v) -> s.merge(k, sign * v, Long::sum));
    return s;
  }
}
