package io.jdra.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The dependency rules of ARCHITECTURE.md as ArchUnit rules: which jdra modules each module may
 * reach (transitively, as Maven allows), and which libraries some must never touch.
 */
final class ModuleRules {
  /** Module package (under io.jdra) -> modules it may depend on directly. */
  static final Map<String, List<String>> ALLOWED = new LinkedHashMap<>();

  static {
    ALLOWED.put("api", List.of());
    ALLOWED.put("httpclient", List.of());
    ALLOWED.put("cel", List.of("api"));
    ALLOWED.put("allocator", List.of("api", "cel"));
    ALLOWED.put("runtime", List.of("api"));
    ALLOWED.put("apiserver", List.of("api", "cel"));
    ALLOWED.put("inprocess", List.of("apiserver"));
    ALLOWED.put("controllers", List.of("runtime"));
    ALLOWED.put("scheduler", List.of("runtime", "allocator"));
    ALLOWED.put("proto", List.of());
    ALLOWED.put("kubeletplugin", List.of("runtime", "proto"));
    ALLOWED.put("kubelet", List.of("runtime", "proto"));
    ALLOWED.put("exampledriver", List.of("kubeletplugin"));
  }

  private static final String FABRIC8_CLIENT = "io.fabric8.kubernetes.client..";

  private ModuleRules() {}

  /** Every rule; each fails when a class of a module reaches where it must not. */
  static List<ArchRule> all() {
    List<ArchRule> rules = new ArrayList<>();
    for (String module : ALLOWED.keySet()) {
      rules.add(onlyAllowedModules(module));
    }
    rules.add(noClient("api"));
    rules.add(noClient("cel"));
    rules.add(noClient("allocator"));
    rules.add(noClient("apiserver"));
    rules.add(allocatorIsPure());
    for (String module : modulesAndCli()) {
      rules.add(noInternalsOfOtherModules(module));
    }
    return rules;
  }

  static ArchRule onlyAllowedModules(String module) {
    Set<String> reachable = reachable(module);
    List<String> forbidden = new ArrayList<>();
    for (String other : ALLOWED.keySet()) {
      if (!other.equals(module) && !reachable.contains(other)) {
        forbidden.add("io.jdra." + other + "..");
      }
    }
    // Nothing depends on the process entry point or on test support.
    forbidden.add("io.jdra.cli..");
    forbidden.add("io.jdra.testing..");
    return noClasses()
        .that()
        .resideInAPackage("io.jdra." + module + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(forbidden.toArray(String[]::new))
        .as("module jdra-" + module + " may only use " + describe(reachable))
        .allowEmptyShould(true);
  }

  static ArchRule noClient(String module) {
    return noClasses()
        .that()
        .resideInAPackage("io.jdra." + module + "..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(FABRIC8_CLIENT)
        .as("module jdra-" + module + " uses fabric8 models only, never the client")
        .allowEmptyShould(true);
  }

  /**
   * A module's {@code internal} packages are its implementation, as Go's {@code internal}
   * directories are: no other module (not even the CLI, nor a module allowed to depend on it) may
   * use them, so a module's public surface stays what its public packages say.
   */
  static ArchRule noInternalsOfOtherModules(String module) {
    DescribedPredicate<JavaClass> othersInternals =
        resideInAPackage("io.jdra..internal..")
            .and(not(resideInAPackage("io.jdra." + module + "..")))
            .as("an internal package of another jdra module");
    return noClasses()
        .that()
        .resideInAPackage("io.jdra." + module + "..")
        .should()
        .dependOnClassesThat(othersInternals)
        .as("module jdra-" + module + " uses no other module's internal packages")
        .allowEmptyShould(true);
  }

  private static List<String> modulesAndCli() {
    List<String> modules = new ArrayList<>(ALLOWED.keySet());
    modules.add("cli");
    modules.add("testing");
    return modules;
  }

  /**
   * The allocator is a pure function: no threads, no I/O, no clients. Its caches of what all
   * scheduling cycles share are read from the scheduler's parallel Filter threads, so a
   * ConcurrentHashMap is the one concurrency class it may use (no executors, locks or futures).
   */
  static ArchRule allocatorIsPure() {
    return noClasses()
        .that()
        .resideInAPackage("io.jdra.allocator..")
        .should()
        .dependOnClassesThat(
            com.tngtech.archunit.base.DescribedPredicate.describe(
                "I/O, network or java.util.concurrent other than ConcurrentHashMap",
                (com.tngtech.archunit.core.domain.JavaClass c) -> {
                  String n = c.getName();
                  return n.startsWith("java.io.")
                      || n.startsWith("java.nio.file.")
                      || n.startsWith("java.net.")
                      || (n.startsWith("java.util.concurrent.")
                          && !n.startsWith("java.util.concurrent.ConcurrentHashMap"));
                }))
        .orShould()
        .dependOnClassesThat()
        .areAssignableTo(Thread.class)
        .as("jdra-allocator has no threads and no I/O")
        .allowEmptyShould(true);
  }

  private static Set<String> reachable(String module) {
    Set<String> seen = new LinkedHashSet<>();
    List<String> todo = new ArrayList<>(ALLOWED.get(module));
    while (!todo.isEmpty()) {
      String m = todo.remove(todo.size() - 1);
      if (seen.add(m)) {
        todo.addAll(ALLOWED.get(m));
      }
    }
    return seen;
  }

  private static String describe(Set<String> modules) {
    return modules.isEmpty() ? "no other jdra module" : "jdra-" + String.join(", jdra-", modules);
  }
}
