package io.jdra.apiserver.bench;

import io.jdra.apiserver.ApiServerOptions;
import io.jdra.apiserver.EmbeddedApiServer;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.rest.WriteOptions;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * In-process cost of one create of a ~1.3 KB ResourceClaim through the REST layer (parse, metadata,
 * DRA admission, managedFields, serialization, store), without HTTP. Each iteration starts from an
 * empty server so the heap stays bounded. Run: {@code scripts/bench jdra-apiserver CreateBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx4g")
public class CreateBench {
  private EmbeddedApiServer server;
  private ObjectService service;
  private ResourceType claims;
  private long next;

  static byte[] claim(long i) {
    return LoadGenerator.claim("c" + i);
  }

  @Setup(Level.Iteration)
  public void start() {
    server = EmbeddedApiServer.start(ApiServerOptions.inMemory());
    service = server.service();
    claims = service.registry().find("resource.k8s.io", "v1", "resourceclaims").orElseThrow();
  }

  @TearDown(Level.Iteration)
  public void stop() {
    server.close();
  }

  @Benchmark
  public Object createClaim() {
    byte[] body = claim(next++);
    return service.create(claims, "default", Json.parseObject(body), WriteOptions.DEFAULT).join();
  }
}
