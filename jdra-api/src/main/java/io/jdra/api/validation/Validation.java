package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassSpec;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Validation of {@code resource.k8s.io/v1} objects equal to kube-apiserver 1.36's ({@code
 * pkg/apis/resource/validation}): the same rules, limits, error order and messages, with the same
 * field paths, e.g. {@code spec.devices.requests[0].exactly.count: Invalid value: 0: must be
 * greater than zero}.
 *
 * <p>Every method returns the list of errors in upstream's order; an empty list means the object is
 * valid. Objects are expected after defaulting and field dropping, as in the API server. Inputs are
 * never modified; {@code null} parts of an object count as unset (never a crash). Map entries are
 * checked in the map's iteration order (upstream's Go maps have none). All methods are stateless
 * and thread-safe.
 *
 * <p>CEL selectors are checked only for presence and length unless a {@link SelectorCompiler} is
 * configured in the {@link ValidationOptions}.
 */
public final class Validation {
  private static final FieldPath METADATA = FieldPath.root("metadata");
  private static final FieldPath SPEC = FieldPath.root("spec");
  private static final FieldPath STATUS = FieldPath.root("status");

  private Validation() {}

  // ---- ResourceClaim ----

  /** A new ResourceClaim: namespaced metadata with a DNS subdomain name, and its spec. */
  public static List<FieldError> validateResourceClaim(ResourceClaim claim) {
    return validateResourceClaim(claim, ValidationOptions.defaults());
  }

  /** As {@link #validateResourceClaim(ResourceClaim)} with options. */
  public static List<FieldError> validateResourceClaim(
      ResourceClaim claim, ValidationOptions opts) {
    List<FieldError> errs =
        new ArrayList<>(
            MetaValidation.validateObjectMeta(
                claim.getMetadata(), true, NameValidator.DNS_SUBDOMAIN, METADATA));
    errs.addAll(ClaimValidation.spec(claim.getSpec(), SPEC, false, opts));
    return errs;
  }

  /**
   * The metadata rules of {@link #validateResourceClaim} alone, for a caller that knows the spec
   * passes them (it validated this very spec, with the same options, before: an API server creating
   * the claims of one template). {@code validateResourceClaim} gives these errors followed by the
   * spec's.
   */
  public static List<FieldError> validateResourceClaimMetadata(ResourceClaim claim) {
    return MetaValidation.validateObjectMeta(
        claim.getMetadata(), true, NameValidator.DNS_SUBDOMAIN, METADATA);
  }

  /** An update of a ResourceClaim: metadata rules, and the spec is immutable. */
  public static List<FieldError> validateResourceClaimUpdate(
      ResourceClaim claim, ResourceClaim old) {
    List<FieldError> errs =
        new ArrayList<>(
            MetaValidation.validateObjectMeta(
                claim.getMetadata(), true, NameValidator.DNS_SUBDOMAIN, METADATA));
    errs.addAll(
        MetaValidation.validateObjectMetaUpdate(claim.getMetadata(), old.getMetadata(), METADATA));
    immutable(errs, claim.getSpec(), old.getSpec(), SPEC);
    return errs;
  }

  /**
   * An update of a ResourceClaim's status: reservedFor (at most 256, unique by uid, only when
   * allocated, no new entries while the claim is being deleted), device statuses (each an allocated
   * device), and the allocation (immutable once set, except clearing it; a new one is checked
   * fully).
   */
  public static List<FieldError> validateResourceClaimStatusUpdate(
      ResourceClaim claim, ResourceClaim old) {
    List<FieldError> errs =
        new ArrayList<>(
            MetaValidation.validateObjectMetaUpdate(
                claim.getMetadata(), old.getMetadata(), METADATA));
    errs.addAll(validateResourceClaimStatusChange(claim, old));
    return errs;
  }

  /**
   * The status rules of {@link #validateResourceClaimStatusUpdate} without the metadata rules: for
   * a caller that knows the metadata is the stored one (an API server that reset it for a {@code
   * /status} write), where the metadata rules cannot fail. Reads only the claim's spec, status and
   * {@code metadata.deletionTimestamp}.
   */
  public static List<FieldError> validateResourceClaimStatusChange(
      ResourceClaim claim, ResourceClaim old) {
    boolean deleted =
        claim.getMetadata() != null && claim.getMetadata().getDeletionTimestamp() != null;
    RequestNames names =
        RequestNames.of(claim.getSpec() == null ? null : claim.getSpec().getDevices());
    return ClaimStatusValidation.statusUpdate(
        claim.getStatus(), old.getStatus(), deleted, names, STATUS);
  }

  // ---- ResourceClaimTemplate ----

  /** A new ResourceClaimTemplate: metadata, template metadata and the claim spec. */
  public static List<FieldError> validateResourceClaimTemplate(ResourceClaimTemplate template) {
    return validateResourceClaimTemplate(template, ValidationOptions.defaults());
  }

  /** As {@link #validateResourceClaimTemplate(ResourceClaimTemplate)} with options. */
  public static List<FieldError> validateResourceClaimTemplate(
      ResourceClaimTemplate template, ValidationOptions opts) {
    List<FieldError> errs =
        new ArrayList<>(
            MetaValidation.validateObjectMeta(
                template.getMetadata(), true, NameValidator.DNS_SUBDOMAIN, METADATA));
    ResourceClaimTemplateSpec spec =
        template.getSpec() == null ? new ResourceClaimTemplateSpec() : template.getSpec();
    errs.addAll(
        MetaValidation.validateTemplateObjectMeta(spec.getMetadata(), SPEC.child("metadata")));
    errs.addAll(ClaimValidation.spec(spec.getSpec(), SPEC.child("spec"), false, opts));
    return errs;
  }

  /** An update of a ResourceClaimTemplate: metadata rules, and the spec is immutable. */
  public static List<FieldError> validateResourceClaimTemplateUpdate(
      ResourceClaimTemplate template, ResourceClaimTemplate old) {
    List<FieldError> errs =
        new ArrayList<>(
            MetaValidation.validateObjectMetaUpdate(
                template.getMetadata(), old.getMetadata(), METADATA));
    immutable(errs, template.getSpec(), old.getSpec(), SPEC);
    return errs;
  }

  // ---- DeviceClass ----

  /** A new DeviceClass: cluster-scoped metadata, selectors, config, extended resource name. */
  public static List<FieldError> validateDeviceClass(DeviceClass deviceClass) {
    return validateDeviceClass(deviceClass, ValidationOptions.defaults());
  }

  /** As {@link #validateDeviceClass(DeviceClass)} with options. */
  public static List<FieldError> validateDeviceClass(
      DeviceClass deviceClass, ValidationOptions opts) {
    List<FieldError> errs = new ArrayList<>(deviceClassMeta(deviceClass.getMetadata()));
    errs.addAll(DeviceClassValidation.spec(deviceClass.getSpec(), null, SPEC, opts));
    return errs;
  }

  /**
   * An update of a DeviceClass: metadata rules, and the spec is re-checked; unchanged selectors and
   * config count as stored (not re-compiled, size limits not re-applied).
   */
  public static List<FieldError> validateDeviceClassUpdate(
      DeviceClass deviceClass, DeviceClass old) {
    return validateDeviceClassUpdate(deviceClass, old, ValidationOptions.defaults());
  }

  /** As {@link #validateDeviceClassUpdate(DeviceClass, DeviceClass)} with options. */
  public static List<FieldError> validateDeviceClassUpdate(
      DeviceClass deviceClass, DeviceClass old, ValidationOptions opts) {
    List<FieldError> errs = new ArrayList<>(deviceClassMeta(deviceClass.getMetadata()));
    errs.addAll(
        MetaValidation.validateObjectMetaUpdate(
            deviceClass.getMetadata(), old.getMetadata(), METADATA));
    DeviceClassSpec oldSpec = old.getSpec() == null ? new DeviceClassSpec() : old.getSpec();
    errs.addAll(DeviceClassValidation.spec(deviceClass.getSpec(), oldSpec, SPEC, opts));
    return errs;
  }

  private static List<FieldError> deviceClassMeta(ObjectMeta meta) {
    return MetaValidation.validateObjectMetaWithErrors(
        meta,
        false,
        (path, name) ->
            NameValidation.invalidEach(path, name, NameValidation.isDns1123SubdomainBytes(name)),
        METADATA);
  }

  // ---- ResourceSlice ----

  /** A new ResourceSlice: cluster-scoped metadata and the spec. */
  public static List<FieldError> validateResourceSlice(ResourceSlice slice) {
    List<FieldError> errs =
        new ArrayList<>(
            MetaValidation.validateObjectMeta(
                slice.getMetadata(), false, NameValidator.DNS_SUBDOMAIN, METADATA));
    errs.addAll(SliceValidation.spec(slice.getSpec(), null, SPEC));
    return errs;
  }

  /**
   * An update of a ResourceSlice: metadata rules; driver, pool name and node name immutable; the
   * spec re-checked (unchanged taints and capacity of a device are not re-checked).
   */
  public static List<FieldError> validateResourceSliceUpdate(
      ResourceSlice slice, ResourceSlice old) {
    List<FieldError> errs =
        new ArrayList<>(
            MetaValidation.validateObjectMetaUpdate(
                slice.getMetadata(), old.getMetadata(), METADATA));
    errs.addAll(
        SliceValidation.spec(
            slice.getSpec(),
            old.getSpec() == null
                ? new io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec()
                : old.getSpec(),
            SPEC));
    return errs;
  }

  // ---- DeviceTaintRule ----

  /** A new DeviceTaintRule: cluster-scoped metadata, device selector and taint. */
  public static List<FieldError> validateDeviceTaintRule(DeviceTaintRule rule) {
    List<FieldError> errs =
        new ArrayList<>(
            MetaValidation.validateObjectMeta(
                rule.getMetadata(), false, NameValidator.DNS_SUBDOMAIN, METADATA));
    errs.addAll(TaintValidation.ruleSpec(rule.getSpec(), null, SPEC));
    return errs;
  }

  /** An update of a DeviceTaintRule: metadata rules and the spec (an unchanged effect is kept). */
  public static List<FieldError> validateDeviceTaintRuleUpdate(
      DeviceTaintRule rule, DeviceTaintRule old) {
    List<FieldError> errs =
        new ArrayList<>(
            MetaValidation.validateObjectMetaUpdate(
                rule.getMetadata(), old.getMetadata(), METADATA));
    errs.addAll(
        TaintValidation.ruleSpec(
            rule.getSpec(),
            old.getSpec() == null
                ? new io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleSpec()
                : old.getSpec(),
            SPEC));
    return errs;
  }

  /** An update of a DeviceTaintRule's status: metadata rules and at most 8 valid conditions. */
  public static List<FieldError> validateDeviceTaintRuleStatusUpdate(
      DeviceTaintRule rule, DeviceTaintRule old) {
    List<FieldError> errs =
        new ArrayList<>(
            MetaValidation.validateObjectMetaUpdate(
                rule.getMetadata(), old.getMetadata(), METADATA));
    var conditions = rule.getStatus() == null ? null : rule.getStatus().getConditions();
    FieldPath path = STATUS.child("conditions");
    errs.addAll(MetaValidation.validateConditions(conditions, path));
    int n = Lists.nn(conditions).size();
    if (n > 8) {
      errs.add(FieldError.tooMany(path, n, 8));
    }
    return errs;
  }

  // ---- shared ----

  /**
   * Object metadata of any kind (upstream {@code ValidateObjectMeta}), reusable for other kinds.
   *
   * @param meta the metadata, {@code null} counts as empty
   * @param namespaced whether the kind is namespaced (namespace required) or cluster-scoped
   *     (namespace forbidden)
   * @param nameValidator checks name and generateName
   * @param path where the metadata sits, normally {@code FieldPath.root("metadata")}
   */
  public static List<FieldError> validateObjectMeta(
      ObjectMeta meta, boolean namespaced, NameValidator nameValidator, FieldPath path) {
    return MetaValidation.validateObjectMeta(meta, namespaced, nameValidator, path);
  }

  private static void immutable(List<FieldError> errs, Object n, Object o, FieldPath path) {
    if (!Objects.equals(n, o)) {
      errs.add(FieldError.invalid(path, n, MetaValidation.FIELD_IMMUTABLE));
    }
  }
}
