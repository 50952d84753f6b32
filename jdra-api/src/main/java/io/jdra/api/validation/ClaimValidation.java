package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import java.util.ArrayList;
import java.util.List;

/** Checks of a ResourceClaim spec ({@code spec.devices}): requests, constraints, config. */
final class ClaimValidation {
  /** Maximum number of constraints in a claim. */
  static final int CONSTRAINTS_MAX = 32;

  /** Maximum number of config entries in a claim or class. */
  static final int CONFIG_MAX = 32;

  static final String REQUEST_REF_DETAIL =
      "must be the name of a request in the claim or the name of a request and a subrequest"
          + " separated by '/'";

  private ClaimValidation() {}

  static List<FieldError> spec(
      ResourceClaimSpec spec, FieldPath path, boolean stored, ValidationOptions opts) {
    DeviceClaim devices = spec == null ? null : spec.getDevices();
    return deviceClaim(
        devices == null ? new DeviceClaim() : devices, path.child("devices"), stored, opts);
  }

  private static List<FieldError> deviceClaim(
      DeviceClaim claim, FieldPath path, boolean stored, ValidationOptions opts) {
    RequestNames names = RequestNames.of(claim);
    List<FieldError> errs = new ArrayList<>();
    errs.addAll(
        Lists.set(
            claim.getRequests(),
            DeviceRequestValidation.REQUESTS_MAX,
            (r, p) -> DeviceRequestValidation.request(r, p, stored, opts),
            r -> MetaValidation.nz(r.getName()),
            path.child("requests")));
    errs.addAll(
        Lists.slice(
            claim.getConstraints(),
            CONSTRAINTS_MAX,
            (c, p) -> constraint(c, p, names),
            path.child("constraints")));
    errs.addAll(
        Lists.slice(
            claim.getConfig(),
            CONFIG_MAX,
            (c, p) -> claimConfig(c, p, names, stored),
            path.child("config")));
    return errs;
  }

  private static List<FieldError> constraint(
      DeviceConstraint constraint, FieldPath path, RequestNames names) {
    List<FieldError> errs = new ArrayList<>(requestRefs(constraint.getRequests(), path, names));
    if (constraint.getMatchAttribute() != null) {
      errs.addAll(
          DeviceValidation.fullyQualifiedName(
              constraint.getMatchAttribute(), path.child("matchAttribute")));
    } else if (constraint.getDistinctAttribute() != null) {
      errs.addAll(
          DeviceValidation.fullyQualifiedName(
              constraint.getDistinctAttribute(), path.child("distinctAttribute")));
    } else {
      // DRAConsumableCapacity is on by default in 1.36; this is upstream's message for it.
      errs.add(
          FieldError.required(
              path,
              "exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but"
                  + " multiple fields are set"));
    }
    return errs;
  }

  private static List<FieldError> claimConfig(
      DeviceClaimConfiguration config, FieldPath path, RequestNames names, boolean stored) {
    List<FieldError> errs = new ArrayList<>(requestRefs(config.getRequests(), path, names));
    errs.addAll(ConfigValidation.opaqueConfig(config.getOpaque(), path, stored));
    return errs;
  }

  /** The {@code requests} list of a constraint or config: unique, at most 32, each a reference. */
  static List<FieldError> requestRefs(List<String> refs, FieldPath parent, RequestNames names) {
    return Lists.set(
        refs,
        DeviceRequestValidation.REQUESTS_MAX,
        (ref, p) -> requestRef(ref, p, names),
        ref -> ref,
        parent.child("requests"));
  }

  /** A reference to {@code request} or {@code request/subrequest} of the claim. */
  static List<FieldError> requestRef(String ref, FieldPath path, RequestNames names) {
    String r = MetaValidation.nz(ref);
    String[] segments = r.split("/", -1);
    if (segments.length > 2) {
      return List.of(FieldError.invalid(path, r, REQUEST_REF_DETAIL));
    }
    List<FieldError> errs = new ArrayList<>();
    for (String segment : segments) {
      errs.addAll(DeviceRequestValidation.validateRequestName(segment, path));
    }
    if (!names.has(r)) {
      errs.add(FieldError.invalid(path, r, REQUEST_REF_DETAIL));
    }
    return errs;
  }
}
