package io.jdra.api.quantity.bench;

import io.jdra.api.quantity.Quantity;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Parse, compare and print costs of {@link Quantity} (CEL selectors compare quantities per device).
 * Run by hand, e.g. {@code java -cp <test classpath> org.openjdk.jmh.Main QuantityBenchmark}; it is
 * not a test and surefire never runs it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class QuantityBenchmark {
  private final String[] inputs = {
    "1Gi", "1Ti", "1G", "1000000000", "1m", "80m", "1080m", "0", "1e9", "1n", "10000000000000000"
  };
  private Quantity[] quantities;

  /** Parsed once for compare and print. */
  public QuantityBenchmark() {
    quantities = new Quantity[inputs.length];
    for (int i = 0; i < inputs.length; i++) {
      quantities[i] = Quantity.parse(inputs[i]);
    }
  }

  @Benchmark
  public void parse(Blackhole bh) {
    for (String s : inputs) {
      bh.consume(Quantity.parse(s));
    }
  }

  @Benchmark
  public void compareTo(Blackhole bh) {
    Quantity[] q = quantities;
    for (int i = 0; i < q.length; i++) {
      bh.consume(q[i].compareTo(q[(i + 3) % q.length]));
    }
  }

  @Benchmark
  public void add(Blackhole bh) {
    Quantity[] q = quantities;
    for (int i = 0; i < q.length; i++) {
      bh.consume(q[i].add(q[(i + 1) % q.length]));
    }
  }

  @Benchmark
  public void negateAndPrint(Blackhole bh) {
    for (Quantity q : quantities) {
      bh.consume(q.negate().toString()); // negate drops the cached string
    }
  }
}
