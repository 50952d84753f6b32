package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PatchTypeTest {
  @ParameterizedTest
  @CsvSource({
    "application/json-patch+json, JSON_PATCH",
    "application/merge-patch+json, MERGE_PATCH",
    "application/strategic-merge-patch+json, STRATEGIC_MERGE_PATCH",
    "application/apply-patch+yaml, APPLY_PATCH_YAML",
    "'application/apply-patch+yaml; charset=utf-8', APPLY_PATCH_YAML",
    "Application/Merge-Patch+JSON, MERGE_PATCH",
    "application/json, ",
    "text/plain, ",
  })
  void byContentType(String header, PatchType expected) {
    assertThat(PatchType.byContentType(header)).isEqualTo(Optional.ofNullable(expected));
  }
}
