package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks of {@code spec.devices.requests[*]}: names, {@code exactly} vs {@code firstAvailable},
 * device class names, selectors, allocation mode and count, tolerations.
 */
final class DeviceRequestValidation {
  /** Maximum number of requests in a claim (and of allocation results). */
  static final int REQUESTS_MAX = 32;

  /** Maximum number of subrequests in {@code firstAvailable}. */
  static final int FIRST_AVAILABLE_MAX = 8;

  /** Maximum number of selectors in a request or class. */
  static final int SELECTORS_MAX = 32;

  /** Maximum length of a CEL selector expression, 10 KiB. */
  static final int CEL_EXPRESSION_MAX_LENGTH = 10 * 1024;

  /**
   * What cel-go reports for an empty expression; used only when no {@link SelectorCompiler} is
   * configured, so that an empty selector is rejected as upstream rejects it.
   */
  static final String EMPTY_EXPRESSION_DETAIL =
      "compilation failed: ERROR: <input>:1:1: Syntax error: mismatched input '<EOF>' expecting"
          + " {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT,"
          + " NUM_UINT, STRING, BYTES, IDENTIFIER}\n | \n | ^";

  private DeviceRequestValidation() {}

  static List<FieldError> request(
      DeviceRequest request, FieldPath path, boolean stored, ValidationOptions opts) {
    List<FieldError> errs =
        new ArrayList<>(validateRequestName(request.getName(), path.child("name")));
    boolean hasFirstAvailable = !Lists.nn(request.getFirstAvailable()).isEmpty();
    boolean hasExactly = request.getExactly() != null;
    if (!hasFirstAvailable && !hasExactly) {
      errs.add(
          FieldError.required(path, "exactly one of `exactly` or `firstAvailable` is required"));
    } else if (hasFirstAvailable && hasExactly) {
      errs.add(
          FieldError.invalid(
              path,
              null,
              "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are"
                  + " set"));
    } else if (hasFirstAvailable) {
      errs.addAll(
          Lists.set(
              request.getFirstAvailable(),
              FIRST_AVAILABLE_MAX,
              (sub, p) -> subRequest(sub, p, stored, opts),
              sub -> MetaValidation.nz(sub.getName()),
              path.child("firstAvailable")));
    } else {
      errs.addAll(exactly(request.getExactly(), path.child("exactly"), stored, opts));
    }
    return errs;
  }

  private static List<FieldError> subRequest(
      DeviceSubRequest sub, FieldPath path, boolean stored, ValidationOptions opts) {
    List<FieldError> errs = new ArrayList<>(validateRequestName(sub.getName(), path.child("name")));
    errs.addAll(deviceClassName(sub.getDeviceClassName(), path.child("deviceClassName")));
    errs.addAll(selectors(sub.getSelectors(), path.child("selectors"), stored, opts));
    errs.addAll(
        allocationMode(
            sub.getAllocationMode(),
            sub.getCount(),
            path.child("allocationMode"),
            path.child("count")));
    errs.addAll(tolerations(sub.getTolerations(), path.child("tolerations")));
    return errs;
  }

  private static List<FieldError> exactly(
      ExactDeviceRequest req, FieldPath path, boolean stored, ValidationOptions opts) {
    List<FieldError> errs =
        new ArrayList<>(deviceClassName(req.getDeviceClassName(), path.child("deviceClassName")));
    errs.addAll(selectors(req.getSelectors(), path.child("selectors"), stored, opts));
    errs.addAll(
        allocationMode(
            req.getAllocationMode(),
            req.getCount(),
            path.child("allocationMode"),
            path.child("count")));
    errs.addAll(tolerations(req.getTolerations(), path.child("tolerations")));
    return errs;
  }

  /**
   * The API's documented maximum of tolerations per request ({@code DeviceTolerationsMaxLength}).
   */
  static final int TOLERATIONS_MAX = 16;

  /**
   * At most {@link #TOLERATIONS_MAX} tolerations, each valid. Upstream 1.36 documents the limit in
   * the API (declarative tag) without enforcing it in handwritten validation; jdra enforces the
   * documented limit, so claims that pass here also pass once upstream enforces it.
   */
  private static List<FieldError> tolerations(List<DeviceToleration> tolerations, FieldPath path) {
    return Lists.slice(tolerations, TOLERATIONS_MAX, TaintValidation::toleration, path);
  }

  static List<FieldError> validateRequestName(String name, FieldPath path) {
    return NameValidation.validateDns1123Label(MetaValidation.nz(name), path);
  }

  static List<FieldError> deviceClassName(String name, FieldPath path) {
    String n = MetaValidation.nz(name);
    if (n.isEmpty()) {
      return List.of(FieldError.required(path, ""));
    }
    return NameValidation.validateDns1123Subdomain(n, path);
  }

  static List<FieldError> allocationMode(
      String mode, Long count, FieldPath modePath, FieldPath countPath) {
    String m = MetaValidation.nz(mode);
    long c = count == null ? 0 : count;
    switch (m) {
      case "All" -> {
        if (c != 0) {
          return List.of(
              FieldError.invalid(
                  countPath, c, "must not be specified when allocationMode is 'All'"));
        }
      }
      case "ExactCount" -> {
        if (c <= 0) {
          return List.of(FieldError.invalid(countPath, c, "must be greater than zero"));
        }
      }
      default -> {
        return List.of(FieldError.notSupported(modePath, m, List.of("All", "ExactCount")));
      }
    }
    return List.of();
  }

  static List<FieldError> selectors(
      List<DeviceSelector> selectors, FieldPath path, boolean stored, ValidationOptions opts) {
    return Lists.slice(selectors, SELECTORS_MAX, (s, p) -> selector(s, p, stored, opts), path);
  }

  private static List<FieldError> selector(
      DeviceSelector selector, FieldPath path, boolean stored, ValidationOptions opts) {
    if (selector.getCel() == null) {
      return List.of(FieldError.required(path.child("cel"), ""));
    }
    return celExpression(
        MetaValidation.nz(selector.getCel().getExpression()),
        path.child("cel", "expression"),
        stored,
        opts);
  }

  /**
   * A selector expression: stored ones are not re-checked; new ones must be at most 10 KiB and
   * compile (via the configured compiler, or else at least be non-empty).
   */
  static List<FieldError> celExpression(
      String expression, FieldPath path, boolean stored, ValidationOptions opts) {
    if (stored) {
      return List.of();
    }
    if (NameValidation.len(expression) > CEL_EXPRESSION_MAX_LENGTH) {
      return List.of(FieldError.tooLong(path, CEL_EXPRESSION_MAX_LENGTH));
    }
    if (opts.selectorCompiler().isPresent()) {
      return List.copyOf(opts.selectorCompiler().get().compile(expression, path));
    }
    if (expression.isEmpty()) {
      return List.of(FieldError.invalid(path, expression, EMPTY_EXPRESSION_DETAIL));
    }
    return List.of();
  }
}
