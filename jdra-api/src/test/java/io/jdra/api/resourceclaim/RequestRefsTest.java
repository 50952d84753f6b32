package io.jdra.api.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RequestRefsTest {

  static Stream<Arguments> refs() {
    return Stream.of(
        // ref, base, is subrequest, parent, subrequest
        Arguments.of("gpu", "gpu", false, Optional.empty(), Optional.empty()),
        Arguments.of("gpu/large", "gpu", true, Optional.of("gpu"), Optional.of("large")),
        Arguments.of("a/b/c", "a", false, Optional.empty(), Optional.empty()),
        Arguments.of("", "", false, Optional.empty(), Optional.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refs")
  void splitsReferences(
      String ref, String base, boolean sub, Optional<String> parent, Optional<String> name) {
    assertThat(RequestRefs.baseRequestRef(ref)).isEqualTo(base);
    assertThat(RequestRefs.isSubRequestRef(ref)).isEqualTo(sub);
    assertThat(RequestRefs.parentRequestName(ref)).isEqualTo(parent);
    assertThat(RequestRefs.subRequestName(ref)).isEqualTo(name);
  }

  @Test
  void createsSubRequestRefs() {
    assertThat(RequestRefs.createSubRequestRef("gpu", "large")).isEqualTo("gpu/large");
  }

  static Stream<Arguments> matches() {
    return Stream.of(
        Arguments.of(List.of(), "gpu", true),
        Arguments.of(null, "gpu/large", true),
        Arguments.of(List.of("gpu"), "gpu", true),
        Arguments.of(List.of("gpu"), "gpu/large", true),
        Arguments.of(List.of("gpu/large"), "gpu/large", true),
        Arguments.of(List.of("gpu/small"), "gpu/large", false),
        Arguments.of(List.of("gpu/large"), "gpu", false),
        Arguments.of(List.of("nic"), "gpu", false));
  }

  @ParameterizedTest(name = "{0} applies to {1}: {2}")
  @MethodSource("matches")
  void configRequestsMatch(List<String> requests, String ref, boolean expected) {
    assertThat(RequestRefs.matches(requests, ref)).isEqualTo(expected);
  }
}
