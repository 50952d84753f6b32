package io.jdra.apiserver.http;

import io.jdra.api.validation.GoFormat;
import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Cause;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.patch.BodyCheck;
import io.jdra.apiserver.patch.StrictDecoding;
import io.jdra.apiserver.patch.TypeCheck;
import io.jdra.apiserver.registry.ResourceType;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code fieldValidation} query parameter as kube-apiserver handles it: {@code Strict} rejects
 * unknown and duplicate fields with every one named in a single error, {@code Warn} (the default)
 * names each in a {@code Warning} header, {@code Ignore} says nothing. Unknown fields are dropped
 * in all three cases, as decoding into the Go types drops them. Stateless.
 */
final class FieldValidation {
  enum Directive {
    IGNORE,
    WARN,
    STRICT
  }

  private static final String STRICT_PREFIX = "strict decoding error: ";
  private static final String YAML_PREFIX = "yaml: unmarshal errors:\n";

  private FieldValidation() {}

  /**
   * The request's directive; 422 for other values, as upstream's options validation.
   *
   * @param optionsKind {@code CreateOptions} or {@code UpdateOptions}
   */
  static Directive directive(Request r, String optionsKind) {
    List<Cause> causes = new ArrayList<>();
    Directive d = parse(r, causes);
    throwIfInvalid(optionsKind, causes);
    return d;
  }

  /**
   * The directive of a patch, with the rest of upstream's PatchOptions validation: apply needs a
   * field manager, other patches may not say {@code force}. All problems in one 422.
   */
  static Directive patchDirective(Request r, boolean apply) {
    List<Cause> causes = new ArrayList<>();
    if (apply) {
      String manager = r.param("fieldManager");
      if (manager == null || manager.isEmpty()) {
        causes.add(
            new Cause(
                "FieldValueRequired",
                "Required value: is required for apply patch",
                "fieldManager"));
      }
    } else if (r.param("force") != null) {
      causes.add(
          new Cause(
              "FieldValueForbidden",
              "Forbidden: may not be specified for non-apply patch",
              "force"));
    }
    Directive d = parse(r, causes);
    throwIfInvalid("PatchOptions", causes);
    return d;
  }

  private static Directive parse(Request r, List<Cause> causes) {
    String v = r.param("fieldValidation");
    if (v == null || v.isEmpty() || v.equals("Warn")) {
      return Directive.WARN;
    }
    if (v.equals("Strict")) {
      return Directive.STRICT;
    }
    if (v.equals("Ignore")) {
      return Directive.IGNORE;
    }
    causes.add(
        new Cause(
            "FieldValueNotSupported",
            "Unsupported value: "
                + GoFormat.quote(v)
                + ": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"",
            "fieldValidation"));
    return Directive.WARN;
  }

  /** Upstream's {@code errors.NewInvalid(GroupKind{meta.k8s.io, optionsKind}, "", errs)}. */
  private static void throwIfInvalid(String optionsKind, List<Cause> causes) {
    if (causes.isEmpty()) {
      return;
    }
    String list =
        causes.size() == 1
            ? causes.get(0).toString()
            : causes.stream().map(Cause::toString).collect(Collectors.joining(", ", "[", "]"));
    throw new ApiException(
        422,
        "Invalid",
        optionsKind + ".meta.k8s.io \"\" is invalid: " + list,
        null,
        "meta.k8s.io",
        optionsKind,
        causes);
  }

  /**
   * Checks a create or update body of the given apiVersion and drops its unknown fields. Strict:
   * 400 {@code Kind in version "v1" cannot be handled as a Kind: strict decoding error: unknown
   * field "spec.foo", ...}.
   */
  static void checkBody(
      Request r, Directive d, Bodies.Parsed body, byte[] raw, String version, ResourceType t) {
    checkBody(r, d, body, raw, t.apiVersion(version), t.kind());
  }

  /** As {@link #checkBody(Request, Directive, Bodies.Parsed, byte[], String, ResourceType)}. */
  static void checkBody(
      Request r, Directive d, Bodies.Parsed body, byte[] raw, String apiVersion, String kind) {
    if ((d == Directive.IGNORE || !(body.yaml() || body.duplicates()))
        && BodyCheck.clean(apiVersion, kind, body.object())) {
      // the usual body: no type error, no unknown field, nothing to prune (one walk for three)
      return;
    }
    // a value of the wrong type fails decoding itself, before any strict check
    String typeError = TypeCheck.decodeError(apiVersion, kind, body.object());
    if (typeError != null) {
      throw ApiException.badRequest(
          kind
              + " in version \""
              + apiVersion.substring(apiVersion.indexOf('/') + 1)
              + "\" cannot be handled as a "
              + kind
              + ": "
              + typeError);
    }
    if (d != Directive.IGNORE) {
      List<String> errors = bodyErrors(body, raw, apiVersion, kind);
      if (!errors.isEmpty() && d == Directive.STRICT) {
        throw ApiException.badRequest(
            kind
                + " in version \""
                + apiVersion.substring(apiVersion.indexOf('/') + 1)
                + "\" cannot be handled as a "
                + kind
                + ": "
                + STRICT_PREFIX
                + String.join(", ", errors));
      }
      warn(r, errors);
      if (errors.isEmpty()) {
        return; // nothing unknown: no second walk on the common path
      }
    }
    StrictDecoding.prune(apiVersion, kind, body.object());
  }

  /**
   * The body of a POST to a subresource that takes its own kind (pods/binding, pods/eviction):
   * decoded and validated as a create of that kind.
   */
  static ObjectNode subresourceBody(Request r, String defaultApiVersion, String kind) {
    Directive d = directive(r, "CreateOptions");
    byte[] raw = r.body().getBytes();
    Bodies.Parsed body =
        Bodies.parseWrite(raw, r.http().getHeader("Content-Type"), defaultApiVersion, kind);
    String given = Json.text(body.object(), "apiVersion");
    String apiVersion = given == null || given.isEmpty() ? defaultApiVersion : given;
    checkBody(r, d, body, raw, apiVersion, kind);
    return body.object();
  }

  private static List<String> bodyErrors(
      Bodies.Parsed body, byte[] raw, String apiVersion, String kind) {
    if (body.yaml()) {
      // YAML is converted to JSON (keys sorted) and decoded; duplicates come from a strict pass.
      List<String> errors = new ArrayList<>();
      List<String> duplicates = StrictDecoding.yamlDuplicates(raw);
      if (!duplicates.isEmpty()) {
        errors.add(StrictDecoding.yamlError(duplicates));
      }
      errors.addAll(StrictDecoding.unknownFields(apiVersion, kind, body.object(), true));
      return errors;
    }
    if (body.duplicates()) {
      return StrictDecoding.jsonErrors(apiVersion, kind, raw);
    }
    return StrictDecoding.unknownFields(apiVersion, kind, body.object(), false);
  }

  /** One warning per error; goyaml's multi-line error gives one per line. */
  static void warn(Request r, List<String> errors) {
    for (String e : errors) {
      int yaml = e.indexOf(YAML_PREFIX);
      if (yaml >= 0) {
        for (String line : e.substring(yaml + YAML_PREFIX.length()).split("\n")) {
          r.warnings().add(line.strip());
        }
      } else {
        r.warnings().add(e);
      }
    }
  }

  // ------------------------------------------------------------------ patches

  /** Strict errors of a patch body, found before it is applied. */
  static List<String> patchBodyErrors(Directive d, String patchType, byte[] body) {
    if (d == Directive.IGNORE) {
      return List.of();
    }
    return switch (patchType) {
      case "application/json-patch+json" ->
          StrictDecoding.jsonPatchErrors(body).stream().map(e -> "json patch " + e).toList();
      case "application/apply-patch+yaml" -> {
        List<String> duplicates = StrictDecoding.yamlDuplicates(body);
        yield duplicates.isEmpty()
            ? List.of()
            : List.of("error converting YAML to JSON: " + StrictDecoding.yamlError(duplicates));
      }
      default -> StrictDecoding.untypedJsonErrors(body);
    };
  }

  /**
   * Checks a patched object (in apiVersion) and drops its unknown fields. Strict: 422 {@code patch:
   * Invalid value: ...: strict decoding error: ...} for JSON, merge and strategic merge patches,
   * 400 {@code error strict decoding patch: ...} for apply.
   */
  static void checkPatched(
      Request r,
      Directive d,
      String patchType,
      byte[] body,
      List<String> bodyErrors,
      String apiVersion,
      ResourceType t,
      ObjectNode patched) {
    boolean apply = patchType.equals("application/apply-patch+yaml");
    String typeError = TypeCheck.decodeError(apiVersion, t.kind(), patched);
    if (typeError != null) {
      // upstream decodes the patched object into its Go type; apply fails building its typed value
      throw apply
          ? ApiException.badRequest(typeError)
          : invalidPatch(Json.MAPPER.writeValueAsString(patched), typeError);
    }
    if (d != Directive.IGNORE) {
      List<String> errors = new ArrayList<>(bodyErrors);
      boolean smp = patchType.equals("application/strategic-merge-patch+json");
      if (!apply) {
        errors.addAll(
            smp
                ? StrictDecoding.convertedUnknownFields(apiVersion, t.kind(), patched)
                : StrictDecoding.unknownFields(apiVersion, t.kind(), patched, true));
      }
      if (!errors.isEmpty() && d == Directive.STRICT) {
        if (apply) {
          throw ApiException.badRequest("error strict decoding patch: " + errors.get(0));
        }
        String value =
            smp ? StrictDecoding.goValue(patchMap(body)) : Json.MAPPER.writeValueAsString(patched);
        throw invalidPatch(value, STRICT_PREFIX + String.join(", ", errors));
      }
      warn(r, errors);
      if (apply || errors.isEmpty()) {
        return; // apply refuses unknown fields itself; else nothing unknown to drop
      }
    }
    StrictDecoding.prune(apiVersion, t.kind(), patched);
  }

  private static JsonNode patchMap(byte[] body) {
    try {
      return Json.MAPPER.readTree(body);
    } catch (RuntimeException e) {
      return Json.object();
    }
  }

  /** Upstream's {@code errors.NewInvalid(schema.GroupKind{}, "", patch: Invalid value: ...)}. */
  private static ApiException invalidPatch(String value, String detail) {
    Cause c =
        new Cause(
            "FieldValueInvalid",
            "Invalid value: " + GoFormat.quote(value) + ": " + detail,
            "patch");
    return new ApiException(422, "Invalid", " \"\" is invalid: " + c, null, null, null, List.of(c));
  }
}
