package io.jdra.scheduler.framework;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.NodeAllocatableResourceClaimStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pod with what the plugins compute from it once (upstream {@code framework.PodInfo}): its
 * effective resource request, the request used for scoring (with upstream's non-zero defaults for
 * containers without cpu or memory requests) and its host ports. Immutable; the pod must not be
 * modified.
 */
public final class PodInfo {
  /** Upstream {@code DefaultMilliCPURequest}: 0.1 core, for scoring pods without requests. */
  public static final long DEFAULT_MILLI_CPU_REQUEST = 100;

  /** Upstream {@code DefaultMemoryRequest}: 200 MiB, for scoring pods without requests. */
  public static final long DEFAULT_MEMORY_REQUEST = 200L * 1024 * 1024;

  private final Pod pod;
  private final String key;
  private final Resource request;
  private final Resource nonZeroRequest;
  private final List<HostPort> hostPorts;

  /** A host port a container asks for; ip "" means all addresses (0.0.0.0). */
  public record HostPort(String protocol, String ip, int port) {}

  public PodInfo(Pod pod) {
    this.pod = pod;
    this.key = key(pod);
    this.request = computeRequest(pod, false);
    this.nonZeroRequest = computeRequest(pod, true);
    this.hostPorts = hostPorts(pod);
  }

  public Pod pod() {
    return pod;
  }

  /** {@code namespace/name}. */
  public String key() {
    return key;
  }

  public String uid() {
    return pod.getMetadata().getUid();
  }

  /** The pod's request: sum of containers, max with init containers, plus overhead. */
  public Resource request() {
    return request;
  }

  /** As {@link #request()}, with cpu and memory defaults for containers that ask for none. */
  public Resource nonZeroRequest() {
    return nonZeroRequest;
  }

  public List<HostPort> hostPorts() {
    return hostPorts;
  }

  public static String key(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  private static Resource computeRequest(Pod pod, boolean nonZero) {
    Resource sum = Resource.ZERO;
    for (Container c : pod.getSpec().getContainers()) {
      sum = sum.plus(containerRequest(c, nonZero));
    }
    // Sidecars (restartable init containers) run with the app containers; a plain init container
    // runs alone, next to the sidecars started before it.
    Resource initMax = Resource.ZERO;
    Resource sidecars = Resource.ZERO;
    List<Container> inits = pod.getSpec().getInitContainers();
    for (Container c : inits == null ? List.<Container>of() : inits) {
      Resource r = containerRequest(c, nonZero);
      if ("Always".equals(c.getRestartPolicy())) {
        sidecars = sidecars.plus(r);
        initMax = initMax.max(sidecars);
      } else {
        initMax = initMax.max(sidecars.plus(r));
      }
    }
    Resource total = sum.plus(sidecars).max(initMax);
    Map<String, Quantity> overhead = pod.getSpec().getOverhead();
    if (overhead != null && !overhead.isEmpty()) {
      total = total.plus(Resource.of(overhead));
    }
    return total.plus(draNodeAllocatable(pod));
  }

  /**
   * What the pod's claims take of the node's cpu, memory and hugepages ({@code
   * status.nodeAllocatableResourceClaimStatuses}, DRANodeAllocatableResources), as upstream's
   * {@code PodRequests} with {@code UseDRANodeAllocatableResourceClaimStatus}. Only a scheduler
   * with the gate on writes that status, so no gate is checked here. The 1.36 {@code resources} map
   * is in fabric8's additional properties (its model follows a later draft).
   */
  private static Resource draNodeAllocatable(Pod pod) {
    if (pod.getStatus() == null
        || pod.getStatus().getNodeAllocatableResourceClaimStatuses() == null) {
      return Resource.ZERO;
    }
    Resource sum = Resource.ZERO;
    for (NodeAllocatableResourceClaimStatus st :
        pod.getStatus().getNodeAllocatableResourceClaimStatuses()) {
      if (st.getAdditionalProperties().get("resources") instanceof Map<?, ?> m) {
        Map<String, Quantity> list = new java.util.HashMap<>();
        m.forEach((k, v) -> list.put(k.toString(), new Quantity(v.toString())));
        sum = sum.plus(Resource.of(list));
      }
    }
    return sum;
  }

  private static Resource containerRequest(Container c, boolean nonZero) {
    ResourceRequirements rr = c.getResources();
    Map<String, Quantity> req = rr == null ? null : rr.getRequests();
    Map<String, Quantity> lim = rr == null ? null : rr.getLimits();
    Resource r = Resource.of(req);
    // The API server defaults a missing request to the limit; objects built without it get the
    // same.
    if (lim != null && !lim.isEmpty()) {
      Map<String, Quantity> merged = new java.util.HashMap<>(lim);
      if (req != null) {
        merged.putAll(req);
      }
      r = Resource.of(merged);
    }
    if (nonZero) {
      boolean hasCpu = r.milliCpu() != 0 || has(req, lim, Resource.CPU);
      boolean hasMem = r.memory() != 0 || has(req, lim, Resource.MEMORY);
      r =
          new Resource(
              hasCpu ? r.milliCpu() : DEFAULT_MILLI_CPU_REQUEST,
              hasMem ? r.memory() : DEFAULT_MEMORY_REQUEST,
              r.ephemeralStorage(),
              r.allowedPodNumber(),
              r.scalar());
    }
    return r;
  }

  private static boolean has(Map<String, Quantity> a, Map<String, Quantity> b, String name) {
    return (a != null && a.containsKey(name)) || (b != null && b.containsKey(name));
  }

  private static List<HostPort> hostPorts(Pod pod) {
    List<HostPort> out = new ArrayList<>();
    for (Container c : pod.getSpec().getContainers()) {
      addPorts(c, out);
    }
    if (pod.getSpec().getInitContainers() != null) {
      for (Container c : pod.getSpec().getInitContainers()) {
        if ("Always".equals(c.getRestartPolicy())) {
          addPorts(c, out);
        }
      }
    }
    return List.copyOf(out);
  }

  private static void addPorts(Container c, List<HostPort> out) {
    if (c.getPorts() == null) {
      return;
    }
    for (ContainerPort p : c.getPorts()) {
      if (p.getHostPort() == null || p.getHostPort() <= 0) {
        continue;
      }
      String proto = p.getProtocol() == null ? "TCP" : p.getProtocol();
      String ip = p.getHostIP() == null || p.getHostIP().equals("0.0.0.0") ? "" : p.getHostIP();
      out.add(new HostPort(proto, ip, p.getHostPort()));
    }
  }
}
