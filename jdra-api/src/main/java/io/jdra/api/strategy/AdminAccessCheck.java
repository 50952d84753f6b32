package io.jdra.api.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.jdra.api.validation.FieldError;
import io.jdra.api.validation.FieldPath;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The API server's admin-access authorization (upstream {@code pkg/registry/resource/utils.go},
 * {@code AuthorizedForAdmin} and {@code AuthorizedForAdminStatus}): a ResourceClaim or
 * ResourceClaimTemplate may only request {@code adminAccess: true} when its namespace carries the
 * label {@code resource.kubernetes.io/admin-access: "true"}.
 *
 * <ul>
 *   <li>Create of a claim or template: checked when any {@code exactly.adminAccess} is true; the
 *       error names the first such request. Updates of the main resource are not checked (the spec
 *       is immutable).
 *   <li>{@code /status} update of a claim: checked only when admin access newly appears in the
 *       allocation results (no result of the stored claim had it).
 * </ul>
 *
 * <p>The error is {@code spec.devices.requests[i].exactly.adminAccess: Forbidden: admin access to
 * devices requires the `resource.kubernetes.io/admin-access: true` label on the containing
 * namespace} (for status: {@code status.allocation.devices.results[i].adminAccess}). As upstream,
 * the path for a template is also {@code spec.devices...} (not {@code spec.spec.devices...}). A
 * failing namespace lookup gives an {@code Internal error: could not retrieve namespace to verify
 * admin access: <cause>}. The namespace is looked up only when admin access is requested. This
 * check is independent of the DRAAdminAccess gate (when the gate is off the field was already
 * dropped). Pure functions; stateless and thread-safe.
 */
public final class AdminAccessCheck {
  /** The namespace label that allows admin access (upstream {@code DRAAdminNamespaceLabelKey}). */
  public static final String NAMESPACE_LABEL = "resource.kubernetes.io/admin-access";

  static final String FORBIDDEN_DETAIL =
      "admin access to devices requires the `"
          + NAMESPACE_LABEL
          + ": true` label on the containing namespace";

  /** Looks up a namespace's labels; throws when the namespace cannot be retrieved. */
  @FunctionalInterface
  public interface NamespaceLabels {
    /**
     * The labels of the namespace (null or empty when it has none).
     *
     * @throws Exception when the namespace cannot be retrieved; its message becomes part of the
     *     internal error
     */
    Map<String, String> labels(String namespace) throws Exception;
  }

  private AdminAccessCheck() {}

  /** Check for creating a claim, given its namespace's labels (null: no labels). */
  public static List<FieldError> resourceClaim(ResourceClaim claim, Map<String, String> labels) {
    return resourceClaim(claim, ns -> labels);
  }

  /** Check for creating a claim, looking up its namespace only when needed. */
  public static List<FieldError> resourceClaim(ResourceClaim claim, NamespaceLabels namespaces) {
    Objects.requireNonNull(claim, "claim");
    return check(requestPath(claim.getSpec()), namespace(claim.getMetadata()), namespaces);
  }

  /** Check for creating a template, given its namespace's labels (null: no labels). */
  public static List<FieldError> resourceClaimTemplate(
      ResourceClaimTemplate template, Map<String, String> labels) {
    return resourceClaimTemplate(template, ns -> labels);
  }

  /** Check for creating a template, looking up its namespace only when needed. */
  public static List<FieldError> resourceClaimTemplate(
      ResourceClaimTemplate template, NamespaceLabels namespaces) {
    Objects.requireNonNull(template, "template");
    ResourceClaimSpec spec = template.getSpec() == null ? null : template.getSpec().getSpec();
    return check(requestPath(spec), namespace(template.getMetadata()), namespaces);
  }

  /** Check for a claim {@code /status} update, given the namespace's labels. */
  public static List<FieldError> resourceClaimStatusUpdate(
      ResourceClaim claim, ResourceClaim old, Map<String, String> labels) {
    return resourceClaimStatusUpdate(claim, old, ns -> labels);
  }

  /** Check for a claim {@code /status} update, looking up the namespace only when needed. */
  public static List<FieldError> resourceClaimStatusUpdate(
      ResourceClaim claim, ResourceClaim old, NamespaceLabels namespaces) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(old, "old");
    if (resultPath(old).isPresent()) {
      return List.of(); // already granted; the allocation is immutable once set
    }
    return check(resultPath(claim), namespace(claim.getMetadata()), namespaces);
  }

  private static List<FieldError> check(
      Optional<FieldPath> path, String namespace, NamespaceLabels namespaces) {
    if (path.isEmpty()) {
      return List.of();
    }
    Map<String, String> labels;
    try {
      labels = namespaces.labels(namespace);
    } catch (Exception e) {
      return List.of(
          FieldError.internal(
              path.get(),
              "could not retrieve namespace to verify admin access: " + e.getMessage()));
    }
    if (labels == null || !"true".equals(labels.get(NAMESPACE_LABEL))) {
      return List.of(FieldError.forbidden(path.get(), FORBIDDEN_DETAIL));
    }
    return List.of();
  }

  private static Optional<FieldPath> requestPath(ResourceClaimSpec spec) {
    List<DeviceRequest> requests = ClaimSpecFields.requests(spec);
    for (int i = 0; i < requests.size(); i++) {
      var exactly = requests.get(i).getExactly();
      if (exactly != null && Boolean.TRUE.equals(exactly.getAdminAccess())) {
        return Optional.of(
            FieldPath.root("spec", "devices", "requests").index(i).child("exactly", "adminAccess"));
      }
    }
    return Optional.empty();
  }

  private static Optional<FieldPath> resultPath(ResourceClaim claim) {
    List<DeviceRequestAllocationResult> results = ClaimStatusFields.results(claim);
    for (int i = 0; i < results.size(); i++) {
      if (Boolean.TRUE.equals(results.get(i).getAdminAccess())) {
        return Optional.of(
            FieldPath.root("status", "allocation", "devices", "results")
                .index(i)
                .child("adminAccess"));
      }
    }
    return Optional.empty();
  }

  private static String namespace(io.fabric8.kubernetes.api.model.ObjectMeta meta) {
    return meta == null ? null : meta.getNamespace();
  }
}
