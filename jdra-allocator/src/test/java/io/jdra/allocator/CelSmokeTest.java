package io.jdra.allocator;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.allocator.internal.CelSelectors;
import io.jdra.allocator.internal.SelectorEngine;
import org.junit.jupiter.api.Test;

class CelSmokeTest {
  @Test
  void attributes() throws Exception {
    SelectorEngine e = CelSelectors.forFeatures(AllocatorFeatures.all());
    var d = Fixtures.device("gpu-0", "model", "X", "index", 0L);
    Object v = e.view("gpu.example.com", d);
    assertThat(e.compile("device.driver == 'gpu.example.com'").matches(v)).isTrue();
    assertThat(e.compile("device.attributes['gpu.example.com'].index == 0").matches(v)).isTrue();
    assertThat(e.compile("device.attributes['gpu.example.com'].model == 'X'").matches(v)).isTrue();
  }
}
