package io.jdra.cel.bench;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.jdra.cel.CelEvaluationException;
import io.jdra.cel.CompilationResult;
import io.jdra.cel.CompiledSelector;
import io.jdra.cel.CompilerOptions;
import io.jdra.cel.DeviceInput;
import io.jdra.cel.DeviceSelectorCompiler;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Per-device selector evaluation and compile-cache hits. Targets (one core): >= 2,000,000/s for the
 * driver+model selector, >= 500,000/s for a quantity comparison, cache hit < 1 us. How to run: see
 * the jdra-cel README.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SelectorBenchmark {
  static final String SIMPLE = "device.driver == \"x\" && device.attributes[\"x\"].model == \"a\"";
  static final String QUANTITY = "device.capacity[\"x\"].memory.compareTo(quantity(\"4Gi\")) >= 0";
  static final String TYPICAL =
      "device.driver == 'x' && device.attributes['x'].type == 'gpu' &&"
          + " device.attributes['x'].productName.lowerAscii().matches('^.*a100.*$') &&"
          + " device.attributes['x'].driverVersion.major() >= 550";

  private DeviceSelectorCompiler compiler;
  private CompiledSelector simple;
  private CompiledSelector quantity;
  private CompiledSelector typical;
  private Device fabric8Device;
  private DeviceInput device;

  @Setup
  public void setup() {
    compiler = DeviceSelectorCompiler.create(CompilerOptions.defaults());
    simple = compiler.compile(SIMPLE).orElseThrow();
    quantity = compiler.compile(QUANTITY).orElseThrow();
    typical = compiler.compile(TYPICAL).orElseThrow();
    Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
    attributes.put("model", attr().withString("a").build());
    attributes.put("type", attr().withString("gpu").build());
    attributes.put("productName", attr().withString("NVIDIA A100-SXM4-40GB").build());
    attributes.put("driverVersion", attr().withVersion("550.54.15").build());
    attributes.put("uuid", attr().withString("gpu-18db0e85-99e9-c746-8531-ffeb86328b39").build());
    attributes.put("index", attr().withInt(3L).build());
    attributes.put("other.example.com/numa", attr().withInt(1L).build());
    fabric8Device =
        new DeviceBuilder()
            .withName("gpu-3")
            .withAttributes(attributes)
            .withCapacity(
                Map.of(
                    "memory", new DeviceCapacityBuilder().withValue(new Quantity("40Gi")).build()))
            .build();
    device = DeviceInput.of("x", fabric8Device);
  }

  private static DeviceAttributeBuilder attr() {
    return new DeviceAttributeBuilder();
  }

  /** The first target: driver and model equality. */
  @Benchmark
  public boolean simpleSelector() throws CelEvaluationException {
    return simple.matches(device);
  }

  /** Building the input view from the fabric8 device, then evaluating. */
  @Benchmark
  public boolean simpleSelectorWithInput() throws CelEvaluationException {
    return simple.matches(DeviceInput.of("x", fabric8Device));
  }

  /** The second target: a capacity quantity comparison. */
  @Benchmark
  public boolean quantitySelector() throws CelEvaluationException {
    return quantity.matches(device);
  }

  /** A class-like selector: type, product name regex, driver version major. */
  @Benchmark
  public boolean typicalSelector() throws CelEvaluationException {
    return typical.matches(device);
  }

  /** A compile-cache hit. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public CompilationResult cacheHit() {
    return compiler.compile(SIMPLE);
  }
}
