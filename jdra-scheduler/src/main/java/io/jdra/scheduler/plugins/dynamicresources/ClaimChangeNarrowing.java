package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.scheduler.framework.QueueingHint;
import java.util.function.Consumer;

/**
 * The pods {@link DynamicResources#isSchedulableAfterClaimChange} can queue for a claim event:
 * those in the claim's namespace that use it by name (directly, or generated from a template and
 * recorded in the pod's status), unless the event freed devices (a deletion, a deallocation), which
 * may help any pod. Keys are {@code namespace/name}. Stateless.
 */
final class ClaimChangeNarrowing implements QueueingHint.Narrowing {
  static final ClaimChangeNarrowing INSTANCE = new ClaimChangeNarrowing();

  private ClaimChangeNarrowing() {}

  @Override
  public void podKeys(Pod pod, Consumer<String> out) {
    String namespace = pod.getMetadata().getNamespace();
    PodClaims.claimNames(pod, name -> out.accept(namespace + "/" + name));
  }

  @Override
  public String eventKey(Object oldObj, Object newObj) {
    ResourceClaim oldC = (ResourceClaim) oldObj;
    ResourceClaim newC = (ResourceClaim) newObj;
    if (newC == null
        || oldC != null
            && DynamicResources.isAllocated(oldC)
            && !DynamicResources.isAllocated(newC)) {
      return null;
    }
    return newC.getMetadata().getNamespace() + "/" + newC.getMetadata().getName();
  }
}
