package io.jdra.controllers.resourceclaim;

import static io.jdra.runtime.logging.Klog.kobj;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.api.resourceclaim.PodClaimName;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.controllers.controllerutil.ApiErrors;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.ApiRequests;
import io.jdra.runtime.client.Clients;
import io.jdra.runtime.logging.Logger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Upstream syncPod: creates the claims of a pod's templates, records them in {@code
 * pod.status.resourceClaimStatuses}, and reserves allocated claims for pods that bypassed the
 * scheduler. Runs in a worker; never holds a lock across an API call.
 */
final class SyncPod {
  /** Upstream fieldManager: the owner of {@code pod.status.resourceClaimStatuses} entries. */
  static final String FIELD_MANAGER = "ResourceClaimController";

  /** Event reason when a claim cannot be created or found for a pod. */
  static final String FAILED_RESOURCE_CLAIM_CREATION = "FailedResourceClaimCreation";

  private static final ApiRequests.Patch APPLY =
      ApiRequests.Patch.serverSideApply(FIELD_MANAGER, true);

  private final Deps deps;
  private final PodGroupClaim podGroupClaim;

  /**
   * The two writes of every pod with a template (claim create, pod status apply) bypass the
   * client's DSL, which cost more CPU per pod than the controller itself (see ApiRequests). Claims
   * are read without managedFields (as the controller manager's informers hold them): the created
   * claim goes to the mutation cache, where nothing reads them, and decoding the managedFields of a
   * generated claim (an entry keyed by the pod's UID) was most of decoding the answer.
   */
  private final ApiRequests.Resource<ResourceClaim> claimsApi;

  /** The apply's answer, the whole pod, is not read (the pod informer brings the change). */
  private final ApiRequests.Resource<Void> podStatusApi;

  private final GeneratedClaimJson claimJson;

  SyncPod(Deps deps) {
    this.deps = deps;
    this.podGroupClaim = new PodGroupClaim(deps);
    ApiRequests api = new ApiRequests(deps.client());
    this.claimsApi =
        new ApiRequests(Clients.withoutManagedFields(deps.client()))
            .resource("resource.k8s.io/v1", "resourceclaims", ResourceClaim.class);
    this.podStatusApi = api.resource("v1", "pods", Void.class).subresource("status");
    this.claimJson = new GeneratedClaimJson(deps.client().getKubernetesSerialization());
  }

  void sync(Ctx ctx, String namespace, String name) {
    Logger log = ctx.logger();
    Optional<Pod> found = deps.pods().get(namespace, name);
    if (found.isEmpty()) {
      log.v(5).info("Nothing to do for pod, it is gone");
      return;
    }
    Pod pod = found.get();
    if (Pods.isDeleted(pod)) {
      log.v(5).info("Nothing to do for pod, it is marked for deletion");
      return;
    }
    Map<String, String> newPodClaims = new LinkedHashMap<>();
    for (PodResourceClaim podClaim : Pods.resourceClaims(pod)) {
      try {
        handleClaim(ctx, pod, podClaim, newPodClaims);
      } catch (RuntimeException e) {
        deps.events()
            .warning(
                pod,
                FAILED_RESOURCE_CLAIM_CREATION,
                "CreateResourceClaim",
                "PodResourceClaim " + podClaim.getName() + ": " + ApiErrors.message(e));
        throw SyncException.wrap(
            "pod " + namespace + "/" + name + ", PodResourceClaim " + podClaim.getName(), e);
      }
    }
    if (!newPodClaims.isEmpty()) {
      applyClaimStatuses(pod, newPodClaims);
    }
    reserveForScheduledPod(ctx, pod);
  }

  /**
   * Upstream handleClaim: makes sure the claim for one entry exists, creating it from the template
   * unless an orphan from an earlier attempt is found; new names go into {@code newPodClaims}.
   */
  private void handleClaim(
      Ctx ctx, Pod pod, PodResourceClaim podClaim, Map<String, String> newPodClaims) {
    PodClaimName claimName = ResourceClaims.name(pod, podClaim);
    switch (claimName) {
      case PodClaimName.NotNeeded n -> {
        return;
      }
      case PodClaimName.Unavailable u -> {
        if (u.reason() != PodClaimName.Reason.CLAIM_NOT_FOUND) {
          throw new SyncException("checking for claim before creating it: " + u.message());
        }
      }
      case PodClaimName.Named named -> {
        if (existingClaimIsUsable(ctx, pod, podClaim, named)) {
          return;
        }
      }
    }
    String templateName = podClaim.getResourceClaimTemplateName();
    if (templateName == null) {
      return;
    }
    Optional<GenericKubernetesResource> group = podGroupClaim.groupOf(pod, podClaim);
    if (group.isPresent()) {
      newPodClaims.put(
          podClaim.getName(), podGroupClaim.nameFor(ctx, pod, group.get(), podClaim, templateName));
      return;
    }
    ResourceClaim claim =
        GeneratedClaims.findPodResourceClaim(
            pod, podClaim, deps.claimCache().byIndex(Indexes.CLAIM_POD_OWNER_INDEX, Pods.uid(pod)));
    if (claim == null) {
      claim = create(ctx, pod, podClaim, templateName);
    }
    newPodClaims.put(podClaim.getName(), claim.getMetadata().getName());
  }

  /**
   * The claim named in the pod status exists and (for a template) is owned by the pod. When it was
   * deleted by accident, or replaced by a foreign one, a new claim is generated.
   */
  private boolean existingClaimIsUsable(
      Ctx ctx, Pod pod, PodResourceClaim podClaim, PodClaimName.Named named) {
    String ns = pod.getMetadata().getNamespace();
    // The informer's claim, or the one this controller just created (read-your-writes).
    Optional<ResourceClaim> claim = deps.claimCache().get(ns, named.name());
    if (claim.isEmpty()) {
      claim = liveClaim(ctx, ns, named.name());
    }
    if (claim.isEmpty()) {
      return false;
    }
    Optional<String> notOwned =
        named.mustCheckOwner() ? ResourceClaims.checkIsForPod(pod, claim.get()) : Optional.empty();
    if (notOwned.isEmpty()) {
      Logger v5 = ctx.logger().v(5);
      if (v5.enabled()) {
        v5.info(
            "Claim already created", "podClaim", podClaim.getName(), "resourceClaim", named.name());
      }
      return true;
    }
    ctx.logger()
        .error(
            new IllegalStateException(notOwned.get()),
            "Claim that was created for the pod is no longer owned by the pod, creating a new one",
            "podClaim",
            podClaim.getName(),
            "resourceClaim",
            named.name());
    return false;
  }

  /**
   * The claim as the API server has it, for a name the pod status records but the informer does not
   * have. The status was written after the claim was created, but pods and claims arrive on two
   * watches: under load the claim informer lags by more claims than the mutation cache keeps
   * (upstream's 100), and taking the claim for deleted generates a second claim for the pod (seen
   * for 117 of a burst of 5,000 pods at load 25). Upstream re-creates at once; one GET in this rare
   * case avoids that.
   */
  private Optional<ResourceClaim> liveClaim(Ctx ctx, String ns, String name) {
    ResourceClaim live;
    try {
      live = claimsApi.get(ns, name);
    } catch (KubernetesClientException e) {
      throw SyncException.wrap("get ResourceClaim " + ns + "/" + name, e);
    }
    ctx.logger()
        .v(5)
        .info(
            "Claim recorded in pod status is not in the informer",
            "resourceClaim",
            name,
            "exists",
            live != null);
    return Optional.ofNullable(live);
  }

  private ResourceClaim create(Ctx ctx, Pod pod, PodResourceClaim podClaim, String templateName) {
    String ns = pod.getMetadata().getNamespace();
    ResourceClaimTemplate template =
        deps.templates()
            .get(ns, templateName)
            .orElseThrow(() ->
                new SyncException(
                    "resource claim template \""
                        + templateName
                        + "\": resourceclaimtemplate.resource.k8s.io \""
                        + templateName
                        + "\" not found"));
    // What the template contributes is written once per template object, not per pod.
    GeneratedClaimJson.Template parts = claimJson.template(template);
    boolean adminAccess = parts.adminAccess();
    if (adminAccess && !deps.features().adminAccess()) {
      throw new SyncException("admin access is requested, but the feature is disabled");
    }
    if (!deps.features().prioritizedList() && parts.prioritizedList()) {
      throw new SyncException(
          "template includes a prioritized list of subrequests, but the feature is disabled");
    }
    // The claim GeneratedClaims.newClaim describes, written as JSON directly.
    String claim = parts.write(pod, podClaim);
    ResourceClaim created;
    try {
      created = claimsApi.create(ns, claim);
    } catch (KubernetesClientException e) {
      deps.metrics().recordCreate(false, adminAccess);
      throw SyncException.wrap(
          "create ResourceClaim "
              + ResourceClaims.generateName(pod.getMetadata().getName(), podClaim.getName()),
          e);
    }
    deps.metrics().recordCreate(true, adminAccess);
    Logger v4 = ctx.logger().v(4);
    if (v4.enabled()) {
      v4.info("Created ResourceClaim", "claim", kobj(created), "pod", kobj(pod));
    }
    // A retry after a failed status update must find this claim even before the informer has it.
    deps.claimCache().mutation(created);
    return created;
  }

  /**
   * Records the generated claims with server-side apply; the field manager owns exactly these
   * entries of the list (a map keyed by name), so entries of others stay.
   */
  private void applyClaimStatuses(Pod pod, Map<String, String> newPodClaims) {
    String ns = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    try {
      podStatusApi.patch(ns, name, APPLY, PodStatusApply.json(ns, name, newPodClaims));
    } catch (KubernetesClientException e) {
      throw SyncException.wrap("update pod " + ns + "/" + name + " ResourceClaimStatuses", e);
    }
  }

  /**
   * A pod with {@code spec.nodeName} set bypassed the scheduler: reserve its allocated claims for
   * it, as upstream does. Never for a terminal pod (upstream #141274): it would pin the claim.
   */
  private void reserveForScheduledPod(Ctx ctx, Pod pod) {
    if (!Pods.isScheduled(pod)) {
      ctx.logger().v(5).info("Nothing to do for pod, scheduler will deal with it");
      return;
    }
    if (Pods.isTerminal(pod)) {
      ctx.logger().v(5).info("Not reserving claims for terminated pod");
      return;
    }
    for (PodResourceClaim podClaim : Pods.resourceClaims(pod)) {
      PodClaimName claimName = ResourceClaims.name(pod, podClaim);
      if (claimName instanceof PodClaimName.Unavailable u) {
        throw new SyncException(u.message());
      }
      if (!(claimName instanceof PodClaimName.Named named)) {
        continue;
      }
      Optional<ResourceClaim> claim =
          deps.claims().get(pod.getMetadata().getNamespace(), named.name());
      if (claim.isEmpty()) {
        continue;
      }
      if (named.mustCheckOwner()) {
        ResourceClaims.checkIsForPod(pod, claim.get())
            .ifPresent(msg -> {
              throw new SyncException(msg);
            });
      }
      if (needsReservation(pod, claim.get())) {
        reserve(ctx, pod, claim.get());
      }
    }
  }

  static boolean needsReservation(Pod pod, ResourceClaim claim) {
    return claim.getStatus() != null
        && claim.getStatus().getAllocation() != null
        && !ResourceClaims.isReservedForPodOrItsGroup(pod, claim)
        && ResourceClaims.canBeReserved(claim);
  }

  private void reserve(Ctx ctx, Pod pod, ResourceClaim claim) {
    ResourceClaim updated =
        new ResourceClaimBuilder(claim)
            .editStatus()
            .addNewReservedFor()
            .withResource("pods")
            .withName(pod.getMetadata().getName())
            .withUid(pod.getMetadata().getUid())
            .endReservedFor()
            .endStatus()
            .build();
    try {
      deps.client()
          .resources(ResourceClaim.class)
          .inNamespace(claim.getMetadata().getNamespace())
          .resource(updated)
          .updateStatus();
    } catch (KubernetesClientException e) {
      throw SyncException.wrap("reserve claim " + kobj(claim) + " for pod", e);
    }
    ctx.logger().v(2).info("Reserved claim for pod", "claim", kobj(claim), "pod", kobj(pod));
  }
}
