package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequest;
import io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequestBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.jdra.api.resourceclaim.ResourceClaims;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;

/**
 * DRA-backed extended resources (KEP-5004, feature DRAExtendedResource): a container asking for
 * {@code deviceclass.resource.kubernetes.io/<class>} or a class's {@code extendedResourceName} in
 * its resources gets devices through one claim per pod, which the scheduler makes itself. Until
 * PreBind creates it, the claim lives in memory under {@value #IN_MEMORY_NAME} with a temporary
 * UID; each node gets its own variant with one request per container and resource the node does not
 * advertise in its allocatable (those it advertises come from a device plugin). Request names are
 * upstream's {@code container-<i>-request-<j>}: i indexes init containers then containers, j the
 * resource among the container's requests sorted by name. Pure functions.
 */
final class ExtendedResourceClaims {
  /** Marks the claim the scheduler made for a pod's extended resources. */
  static final String ANNOTATION = ResourceClaims.EXTENDED_RESOURCE_CLAIM_ANNOTATION;

  /** The name of the claim before it exists in the API (upstream {@code specialClaimInMemName}). */
  static final String IN_MEMORY_NAME = "<extended-resources>";

  static final String DEVICE_CLASS_PREFIX = ResourceClaims.DEVICE_CLASS_RESOURCE_PREFIX;

  private ExtendedResourceClaims() {}

  /**
   * Upstream {@code IsExtendedResourceName}: a name with a domain outside {@code kubernetes.io}, or
   * one of the device-class names, and not a quota name.
   */
  static boolean isExtendedResourceName(String name) {
    if (name.startsWith(DEVICE_CLASS_PREFIX)) {
      return true;
    }
    return name.contains("/") && !name.contains("kubernetes.io/") && !name.startsWith("requests.");
  }

  /**
   * The pod's requests of extended resources a DeviceClass maps to DRA, as the pod as a whole needs
   * them (the larger of the containers' sum and any one init container); empty when none.
   */
  static Map<String, Long> podRequests(Pod pod, Function<String, String> classOf) {
    Map<String, Long> sum = new TreeMap<>();
    for (Container c : pod.getSpec().getContainers()) {
      forEachMapped(c, classOf, (name, n) -> sum.merge(name, n, Long::sum));
    }
    if (pod.getSpec().getInitContainers() != null) {
      for (Container c : pod.getSpec().getInitContainers()) {
        forEachMapped(c, classOf, (name, n) -> sum.merge(name, n, Math::max));
      }
    }
    sum.values().removeIf(n -> n == 0);
    return sum;
  }

  private static void forEachMapped(
      Container c,
      Function<String, String> classOf,
      java.util.function.BiConsumer<String, Long> f) {
    Map<String, Quantity> reqs = requests(c);
    for (Map.Entry<String, Quantity> e : reqs.entrySet()) {
      if (isExtendedResourceName(e.getKey()) && classOf.apply(e.getKey()) != null) {
        f.accept(e.getKey(), count(e.getValue()));
      }
    }
  }

  /** A container's requests; limits stand in for missing requests as API defaulting does. */
  private static Map<String, Quantity> requests(Container c) {
    Map<String, Quantity> out = new TreeMap<>();
    if (c.getResources() == null) {
      return out;
    }
    if (c.getResources().getLimits() != null) {
      out.putAll(c.getResources().getLimits());
    }
    if (c.getResources().getRequests() != null) {
      out.putAll(c.getResources().getRequests());
    }
    return out;
  }

  private static long count(Quantity q) {
    try {
      return Quantity.getAmountInBytes(q).longValueExact();
    } catch (ArithmeticException e) {
      return 0; // extended resources are whole numbers; validation rejects others
    }
  }

  /** The in-memory claim for a pod whose claim does not exist yet. */
  static ResourceClaim inMemory(Pod pod) {
    OwnerReference owner =
        new OwnerReferenceBuilder()
            .withApiVersion("v1")
            .withKind("Pod")
            .withName(pod.getMetadata().getName())
            .withUid(pod.getMetadata().getUid())
            .withController(true)
            .withBlockOwnerDeletion(true)
            .build();
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withNamespace(pod.getMetadata().getNamespace())
        .withName(IN_MEMORY_NAME)
        .withUid(UUID.randomUUID().toString())
        .withGenerateName(pod.getMetadata().getName() + "-extended-resources-")
        .withOwnerReferences(owner)
        .withAnnotations(Map.of(ANNOTATION, "true"))
        .endMetadata()
        .withNewSpec()
        .withNewDevices()
        .endDevices()
        .endSpec()
        .build();
  }

  static boolean isInMemory(ResourceClaim c) {
    return IN_MEMORY_NAME.equals(c.getMetadata().getName());
  }

  /** The claim an earlier attempt created for the pod (annotated, controlled by it), or null. */
  /**
   * The UID of the pod an extended-resource claim was made for (the annotation and the pod as
   * controlling owner), or null for any other claim.
   */
  static String ownerPodUid(ResourceClaim c) {
    Map<String, String> a = c.getMetadata().getAnnotations();
    if (a == null || !"true".equals(a.get(ANNOTATION))) {
      return null;
    }
    if (c.getMetadata().getOwnerReferences() == null) {
      return null;
    }
    for (OwnerReference o : c.getMetadata().getOwnerReferences()) {
      if (Boolean.TRUE.equals(o.getController()) && o.getUid() != null) {
        return o.getUid();
      }
    }
    return null;
  }

  /** Outcome of looking at one node. */
  sealed interface NodeNeeds {}

  /** Some resources come from DRA on this node: the claim variant to allocate. */
  record ViaDra(ResourceClaim claim) implements NodeNeeds {}

  /** The node advertises every resource (device plugins): nothing to allocate. */
  record NoneViaDra() implements NodeNeeds {}

  /** A resource is neither advertised nor mapped by a class. */
  record CannotFit(String resource) implements NodeNeeds {}

  /**
   * What the pod's extended resources need on {@code node}: the resources that {@code podRequests}
   * holds and the node's allocatable lacks go through DRA.
   */
  static NodeNeeds forNode(
      Pod pod,
      ResourceClaim inMemory,
      Map<String, Long> podRequests,
      Function<String, String> classOf,
      Node node) {
    Map<String, Quantity> allocatable =
        node.getStatus() == null || node.getStatus().getAllocatable() == null
            ? Map.of()
            : node.getStatus().getAllocatable();
    List<String> viaDra = new ArrayList<>();
    for (String name : podRequests.keySet()) {
      if (!allocatable.containsKey(name)) {
        viaDra.add(name);
      }
    }
    if (viaDra.isEmpty()) {
      return new NoneViaDra();
    }
    List<DeviceRequest> requests = deviceRequests(pod, Set.copyOf(viaDra), classOf);
    ResourceClaim variant =
        new ResourceClaimBuilder(inMemory)
            .editSpec()
            .editDevices()
            .withRequests(requests)
            .endDevices()
            .endSpec()
            .build();
    return new ViaDra(variant);
  }

  /** One ExactCount request per container and resource in {@code viaDra}. */
  static List<DeviceRequest> deviceRequests(
      Pod pod, Set<String> viaDra, Function<String, String> classOf) {
    List<DeviceRequest> out = new ArrayList<>();
    List<Container> all = containers(pod);
    for (int i = 0; i < all.size(); i++) {
      Map<String, Quantity> reqs = requests(all.get(i));
      List<String> names = new ArrayList<>(reqs.keySet());
      for (int j = 0; j < names.size(); j++) {
        String name = names.get(j);
        long n = count(reqs.get(name));
        if (!viaDra.contains(name) || n == 0) {
          continue;
        }
        out.add(
            new DeviceRequestBuilder()
                .withName(requestName(i, j))
                .withNewExactly()
                .withDeviceClassName(classOf.apply(name))
                .withAllocationMode("ExactCount")
                .withCount(n)
                .endExactly()
                .build());
      }
    }
    return out;
  }

  /** Which container and resource each request of the claim serves (pod status). */
  static List<ContainerExtendedResourceRequest> requestMappings(ResourceClaim claim, Pod pod) {
    Set<String> requestNames = new java.util.HashSet<>();
    for (DeviceRequest r : claim.getSpec().getDevices().getRequests()) {
      requestNames.add(r.getName());
    }
    List<ContainerExtendedResourceRequest> out = new ArrayList<>();
    List<Container> all = containers(pod);
    for (int i = 0; i < all.size(); i++) {
      List<String> names = new ArrayList<>(requests(all.get(i)).keySet());
      for (int j = 0; j < names.size(); j++) {
        if (requestNames.contains(requestName(i, j))) {
          out.add(
              new ContainerExtendedResourceRequestBuilder()
                  .withContainerName(all.get(i).getName())
                  .withResourceName(names.get(j))
                  .withRequestName(requestName(i, j))
                  .build());
        }
      }
    }
    return out;
  }

  static String requestName(int container, int resource) {
    return "container-" + container + "-request-" + resource;
  }

  /** Init containers, then containers, as upstream indexes them. */
  private static List<Container> containers(Pod pod) {
    List<Container> all = new ArrayList<>();
    if (pod.getSpec().getInitContainers() != null) {
      all.addAll(pod.getSpec().getInitContainers());
    }
    all.addAll(pod.getSpec().getContainers());
    return all;
  }
}
