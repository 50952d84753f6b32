package io.jdra.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The layers inside jdra-apiserver, as upstream's packages are layered: {@code http} (the handlers)
 * over {@code rest} (the generic registry and the per-kind REST objects) over {@code storage};
 * {@code admission} and {@code auth} never reach back into {@code rest} or {@code http}; {@code
 * meta} and {@code registry} are leaves every layer may use. The root package (start-up, options)
 * may use everything and nothing uses it.
 */
final class ApiServerLayers {
  private static final String ROOT = "io.jdra.apiserver";

  /** Package under io.jdra.apiserver -> the sibling packages it may use directly. */
  static final Map<String, List<String>> ALLOWED = new LinkedHashMap<>();

  static {
    ALLOWED.put("registry", List.of());
    ALLOWED.put("meta", List.of("registry"));
    ALLOWED.put("patch", List.of("meta"));
    ALLOWED.put("storage", List.of());
    ALLOWED.put("convert", List.of("registry"));
    ALLOWED.put("protobuf", List.of("meta", "registry"));
    ALLOWED.put("auth", List.of("meta", "registry", "storage"));
    ALLOWED.put("admission", List.of("auth", "meta", "registry"));
    ALLOWED.put("rest", List.of("admission", "auth", "meta", "patch", "registry", "storage"));
    ALLOWED.put(
        "http",
        List.of("auth", "convert", "meta", "patch", "protobuf", "registry", "rest", "storage"));
  }

  private ApiServerLayers() {}

  /** One rule per package. */
  static List<ArchRule> all() {
    List<ArchRule> rules = new ArrayList<>();
    for (String layer : ALLOWED.keySet()) {
      rules.add(onlyAllowedLayers(layer));
    }
    return rules;
  }

  static ArchRule onlyAllowedLayers(String layer) {
    List<String> forbidden = new ArrayList<>();
    forbidden.add(ROOT); // the root package only, not its subpackages
    for (String other : ALLOWED.keySet()) {
      if (!other.equals(layer) && !ALLOWED.get(layer).contains(other)) {
        forbidden.add(ROOT + "." + other + "..");
      }
    }
    List<String> allowed = ALLOWED.get(layer);
    return noClasses()
        .that()
        .resideInAPackage(ROOT + "." + layer + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(forbidden.toArray(String[]::new))
        .as(
            "jdra-apiserver package "
                + layer
                + " may only use "
                + (allowed.isEmpty()
                    ? "no other package of the server"
                    : String.join(", ", allowed)))
        .allowEmptyShould(true);
  }
}
