package io.jdra.cel;

import static dev.cel.common.types.SimpleType.BOOL;
import static dev.cel.common.types.SimpleType.INT;
import static dev.cel.common.types.SimpleType.STRING;

import dev.cel.common.types.CelType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;
import java.util.function.BiFunction;

/** The Kubernetes semver library (kubernetes.Semver, version 1 with normalization). */
final class SemverLibrary {
  private static final CelType SEMVER = Semver.TYPE;

  private SemverLibrary() {}

  static void register(FunctionTable t) {
    t.global(
        "semver",
        "string_to_semver",
        SEMVER,
        List.of(STRING),
        CelFunctionBinding.from("string_to_semver", String.class, s -> parse(s, false)));
    t.global(
        "semver",
        "string_bool_to_semver",
        SEMVER,
        List.of(STRING, BOOL),
        CelFunctionBinding.from(
            "string_bool_to_semver", String.class, Boolean.class, SemverLibrary::parse));
    t.global(
        "isSemver",
        "is_semver_string",
        BOOL,
        List.of(STRING),
        CelFunctionBinding.from("is_semver_string", String.class, s -> isSemver(s, false)));
    t.global(
        "isSemver",
        "is_semver_string_bool",
        BOOL,
        List.of(STRING, BOOL),
        CelFunctionBinding.from(
            "is_semver_string_bool", String.class, Boolean.class, SemverLibrary::isSemver));
    compare(t, "isGreaterThan", "semver_is_greater_than", BOOL, (a, b) -> a.compareTo(b) > 0);
    compare(t, "isLessThan", "semver_is_less_than", BOOL, (a, b) -> a.compareTo(b) < 0);
    compare(t, "compareTo", "semver_compare_to", INT, (a, b) -> (long) a.compareTo(b));
    t.member(
        "major",
        "semver_major",
        INT,
        List.of(SEMVER),
        CelFunctionBinding.from("semver_major", Semver.class, Semver::major));
    t.member(
        "minor",
        "semver_minor",
        INT,
        List.of(SEMVER),
        CelFunctionBinding.from("semver_minor", Semver.class, Semver::minor));
    t.member(
        "patch",
        "semver_patch",
        INT,
        List.of(SEMVER),
        CelFunctionBinding.from("semver_patch", Semver.class, Semver::patch));
  }

  private static void compare(
      FunctionTable t,
      String name,
      String id,
      CelType result,
      BiFunction<Semver, Semver, Object> f) {
    t.member(
        name,
        id,
        result,
        List.of(SEMVER, SEMVER),
        CelFunctionBinding.from(id, Semver.class, Semver.class, f::apply));
  }

  private static Semver parse(String s, boolean normalize) throws CelEvaluationException {
    try {
      return normalize ? Semver.parseNormalized(s) : Semver.parse(s);
    } catch (IllegalArgumentException e) {
      throw new CelEvaluationException(e.getMessage());
    }
  }

  private static boolean isSemver(String s, boolean normalize) {
    try {
      parse(s, normalize);
      return true;
    } catch (CelEvaluationException e) {
      return false;
    }
  }
}
