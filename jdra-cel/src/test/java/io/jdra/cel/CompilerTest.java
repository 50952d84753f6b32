package io.jdra.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Compile cache, options, device input construction and concurrent use. */
class CompilerTest {
  @Test
  void cacheReturnsTheSameResult() {
    DeviceSelectorCompiler c = DeviceSelectorCompiler.create(CompilerOptions.defaults());
    CompilationResult first = c.compile("device.driver == 'cache-test'");
    assertThat(c.compile("device.driver == 'cache-test'")).isSameAs(first);
    assertThat(
            DeviceSelectorCompiler.create(CompilerOptions.defaults())
                .compile("device.driver == 'cache-test'"))
        .isSameAs(first);
  }

  @Test
  void cacheKeyIncludesOptions() {
    String expr = "device.allowMultipleAllocations";
    CompilationResult without =
        DeviceSelectorCompiler.create(CompilerOptions.defaults()).compile(expr);
    CompilationResult with =
        DeviceSelectorCompiler.create(CompilerOptions.defaults().withConsumableCapacity(true))
            .compile(expr);
    assertThat(without.isOk()).isFalse();
    assertThat(with.isOk()).isTrue();
  }

  @Test
  void cacheEvictsLeastRecentlyUsed() {
    CompileCache cache = new CompileCache(2);
    CompilerOptions o = CompilerOptions.defaults();
    AtomicInteger compiles = new AtomicInteger();
    DeviceSelectorCompiler c = DeviceSelectorCompiler.create(o);
    java.util.function.Function<String, CompilationResult> get =
        e ->
            cache.get(
                o,
                e,
                () -> {
                  compiles.incrementAndGet();
                  return c.compileUncached(e);
                });
    get.apply("true");
    get.apply("false");
    get.apply("true"); // hit; "false" is now the eldest
    get.apply("1 == 1"); // evicts "false"
    assertThat(compiles).hasValue(3);
    get.apply("true");
    assertThat(compiles).hasValue(3);
    get.apply("false");
    assertThat(compiles).hasValue(4);
    assertThat(cache.size()).isEqualTo(2);
  }

  @Test
  void newExpressionsFollowFeatureGates() {
    var gates = io.jdra.api.features.FeatureGates.defaults();
    CompilerOptions o = CompilerOptions.newExpressions(gates);
    assertThat(o.consumableCapacity())
        .isEqualTo(gates.enabled(io.jdra.api.features.Feature.DRA_CONSUMABLE_CAPACITY));
    assertThat(o.listTypeAttributes())
        .isEqualTo(gates.enabled(io.jdra.api.features.Feature.DRA_LIST_TYPE_ATTRIBUTES));
    assertThat(o.rejectTooComplex()).isTrue();
    CompilerOptions all =
        CompilerOptions.newExpressions(
            gates
                .with(io.jdra.api.features.Feature.DRA_LIST_TYPE_ATTRIBUTES, true)
                .with(io.jdra.api.features.Feature.DRA_CONSUMABLE_CAPACITY, true));
    assertThat(
            DeviceSelectorCompiler.create(all)
                .compile("device.allowMultipleAllocations && device.attributes['d'].a.includes(1)")
                .isOk())
        .isTrue();
  }

  @Test
  void optionsAreValidated() {
    assertThatThrownBy(() -> CompilerOptions.defaults().withCostLimit(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("CEL cost limit must be positive, got 0");
  }

  @Test
  void compileErrorThroughOrElseThrow() {
    assertThatThrownBy(() ->
            DeviceSelectorCompiler.create(CompilerOptions.defaults()).compile("1").orElseThrow())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("must evaluate to bool or the unknown type, not int");
  }

  @Test
  void deviceInputFromFabric8() throws Exception {
    var device =
        new DeviceBuilder()
            .withName("d0")
            .withAttributes(
                Map.of(
                    "model", new DeviceAttributeBuilder().withString("a").build(),
                    "other.example.com/speed", new DeviceAttributeBuilder().withInt(10L).build(),
                    "dra.example.com/qualified",
                        new DeviceAttributeBuilder().withBool(true).build(),
                    "ids", new DeviceAttributeBuilder().withInts(1L, 2L).build(),
                    "versions",
                        new DeviceAttributeBuilder().withVersions("1.0.0", "2.0.0").build()))
            .withCapacity(
                Map.of(
                    "memory", new DeviceCapacityBuilder().withValue(new Quantity("1Gi")).build()))
            .withAllowMultipleAllocations(true)
            .build();
    DeviceInput in = DeviceInput.of("dra.example.com", device);
    DeviceSelectorCompiler c = DeviceSelectorCompiler.create(CompilerOptions.storedExpressions());
    for (String e :
        List.of(
            "device.attributes['dra.example.com'].model == 'a'",
            "device.attributes['dra.example.com'].qualified",
            "device.attributes['other.example.com'].speed == 10",
            "device.attributes['dra.example.com'].ids == [1, 2]",
            "device.attributes['dra.example.com'].versions[1].major() == 2",
            "device.attributes.size() == 2 && device.attributes['dra.example.com'].size() == 4",
            "device.capacity['dra.example.com'].memory == quantity('1024Mi')",
            "device.allowMultipleAllocations")) {
      assertThat(c.compile(e).orElseThrow().matches(in)).as(e).isTrue();
    }
    assertThat(DeviceInput.of("d", new DeviceBuilder().withName("empty").build()).driver())
        .isEqualTo("d");
  }

  @Test
  void invalidVersionAttributeIsARuntimeErrorNamingIt() {
    DeviceInput in = DeviceInput.builder("d").version("v", "1.0").build();
    CompiledSelector s =
        DeviceSelectorCompiler.create(CompilerOptions.defaults())
            .compile("device.attributes['d'].v.major() == 1")
            .orElseThrow();
    assertThatThrownBy(() -> s.matches(in))
        .isInstanceOf(CelEvaluationException.class)
        .hasMessage("attribute v: parse semantic version: No Major.Minor.Patch elements found");
  }

  @Test
  void selectorsAreThreadSafe() throws Exception {
    CompiledSelector s =
        DeviceSelectorCompiler.create(CompilerOptions.defaults())
            .compile(
                "device.attributes['d'].n % 2 == 0 &&"
                    + " device.capacity['d'].mem.isGreaterThan(quantity('1Gi'))")
            .orElseThrow();
    List<DeviceInput> devices = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      devices.add(DeviceInput.builder("d").attribute("n", (long) i).capacity("mem", "2Gi").build());
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        results.add(
            pool.submit(() -> {
              int matched = 0;
              for (int r = 0; r < 50; r++) {
                for (DeviceInput d : devices) {
                  matched += s.matches(d) ? 1 : 0;
                }
              }
              return matched;
            }));
      }
      for (Future<Integer> f : results) {
        assertThat(f.get()).isEqualTo(50 * 50);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
