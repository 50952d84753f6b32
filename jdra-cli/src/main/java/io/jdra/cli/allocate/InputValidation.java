package io.jdra.cli.allocate;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.api.defaulting.Defaults;
import io.jdra.api.validation.FieldError;
import io.jdra.api.validation.Validation;
import io.jdra.cli.UserException;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code --validate}: the API server's defaulting and validation of each input object, in input
 * order.
 */
public final class InputValidation {
  private InputValidation() {}

  /** Throws for the first invalid object, with the API server's message. */
  public static void check(InputSet in) {
    // The API server defaults before it validates; the objects used for allocation stay as given.
    Instant now = Instant.now();
    for (InputSet.Source s : in.sources()) {
      List<FieldError> errors =
          switch (s.object()) {
            case DeviceClass c -> Validation.validateDeviceClass(Defaults.deviceClass(c));
            case ResourceSlice sl ->
                Validation.validateResourceSlice(Defaults.resourceSlice(sl, now));
            case DeviceTaintRule r ->
                Validation.validateDeviceTaintRule(Defaults.deviceTaintRule(r, now));
            case ResourceClaim c -> Validation.validateResourceClaim(Defaults.resourceClaim(c));
            default -> List.of();
          };
      if (!errors.isEmpty()) {
        String list =
            errors.size() == 1
                ? errors.get(0).toString()
                : errors.stream()
                    .map(FieldError::toString)
                    .collect(Collectors.joining(", ", "[", "]"));
        throw new UserException(
            s.where()
                + ": "
                + s.kind()
                + ".resource.k8s.io \""
                + s.name()
                + "\" is invalid: "
                + list);
      }
    }
  }
}
