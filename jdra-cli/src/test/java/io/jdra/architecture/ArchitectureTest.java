package io.jdra.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.jdra.allocator.Allocator;
import io.jdra.api.archfixture.ApiReachingIntoCli;
import io.jdra.api.archfixture.ApiUsingAllocatorInternals;
import io.jdra.api.archfixture.ApiUsingTheClient;
import io.jdra.apiserver.admission.archfixture.AdmissionReachingIntoRest;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Keeps the module dependency rules of ARCHITECTURE.md true for all production code. */
class ArchitectureTest {
  private static JavaClasses production;

  @BeforeAll
  static void importProductionClasses() {
    production =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.jdra");
  }

  @TestFactory
  Stream<DynamicTest> productionCodeFollowsTheModuleRules() {
    assertThat(production).as("jdra classes imported").isNotEmpty();
    return ModuleRules.all().stream()
        .map(rule -> DynamicTest.dynamicTest(rule.getDescription(), () -> rule.check(production)));
  }

  @TestFactory
  Stream<DynamicTest> apiServerPackagesFollowTheirLayers() {
    return ApiServerLayers.all().stream()
        .map(rule -> DynamicTest.dynamicTest(rule.getDescription(), () -> rule.check(production)));
  }

  @Test
  void anAdmissionPluginReachingIntoRestIsReported() {
    EvaluationResult result =
        evaluate(ApiServerLayers.onlyAllowedLayers("admission"), AdmissionReachingIntoRest.class);
    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().toString())
        .contains("io.jdra.apiserver.rest.ObjectService");
  }

  @Test
  void aModuleReachingIntoTheCliIsReported() {
    EvaluationResult result =
        evaluate(ModuleRules.onlyAllowedModules("api"), ApiReachingIntoCli.class);
    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().toString()).contains("io.jdra.cli.Main");
  }

  @Test
  void theApiUsingTheFabric8ClientIsReported() {
    EvaluationResult result = evaluate(ModuleRules.noClient("api"), ApiUsingTheClient.class);
    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().toString()).contains("io.fabric8.kubernetes.client");
  }

  @Test
  void aModuleUsingAnotherModulesInternalsIsReported() {
    EvaluationResult result =
        evaluate(ModuleRules.noInternalsOfOtherModules("api"), ApiUsingAllocatorInternals.class);
    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().toString())
        .contains("io.jdra.allocator.internal.CelSelectors");
  }

  @Test
  void aModuleUsingItsOwnInternalsIsFine() {
    EvaluationResult result =
        evaluate(ModuleRules.noInternalsOfOtherModules("allocator"), Allocator.class);
    assertThat(result.hasViolation()).isFalse();
  }

  private static EvaluationResult evaluate(ArchRule rule, Class<?> fixture) {
    return rule.evaluate(new ClassFileImporter().importClasses(fixture));
  }
}
