package io.jdra.inprocess;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * How an in-process watch stream becomes the event texts fabric8 decodes, per batch of 64 pod
 * events (about 2.3 KB each, in 16 KiB buffers as the server hands them over): {@code httpStream}
 * is what the HTTP-stream watch does, {@link AsciiJson} on the bytes, then the reader of fabric8
 * 8.0's {@code WatchHTTPManager} as it works (each buffer decoded to characters, every character
 * appended to a {@code StringBuffer}, a String made at each '\n'); {@code webSocket} is {@link
 * WatchSocket}'s splitting at '\n' bytes with one UTF-8 decode per event. The package is this
 * module's own (not {@code bench}) because the splitter is package-private.
 *
 * <pre>scripts/bench jdra-inprocess -f 1 -wi 3 -i 5 WatchStreamBench</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class WatchStreamBench {
  private static final int EVENTS = 64;
  private static final int BUFFER = 16 * 1024;

  private List<ByteBuffer> chunks;

  @Setup
  public void setUp() {
    StringBuilder stream = new StringBuilder();
    for (int i = 0; i < EVENTS; i++) {
      stream.append("{\"type\":\"MODIFIED\",\"object\":").append(pod(i)).append("}\n");
    }
    byte[] bytes = stream.toString().getBytes(StandardCharsets.UTF_8);
    chunks = new ArrayList<>();
    for (int at = 0; at < bytes.length; at += BUFFER) {
      chunks.add(ByteBuffer.wrap(bytes, at, Math.min(BUFFER, bytes.length - at)).slice());
    }
  }

  @Benchmark
  public void httpStream(Blackhole events) {
    StringBuffer line = new StringBuffer();
    for (ByteBuffer chunk : new AsciiJson().escape(duplicates())) {
      CharBuffer chars = StandardCharsets.UTF_8.decode(chunk);
      for (char c : chars.array()) {
        if (c == '\n') {
          events.consume(line.toString());
          line.setLength(0);
        } else {
          line.append(c);
        }
      }
    }
  }

  @Benchmark
  public void webSocket(Blackhole events) {
    WatchSocket.WatchLines lines = new WatchSocket.WatchLines();
    ArrayDeque<String> out = new ArrayDeque<>();
    for (ByteBuffer chunk : duplicates()) {
      lines.split(chunk, out);
    }
    out.forEach(events::consume);
  }

  private List<ByteBuffer> duplicates() {
    List<ByteBuffer> d = new ArrayList<>(chunks.size());
    chunks.forEach(c -> d.add(c.duplicate()));
    return d;
  }

  private static String pod(int i) {
    return """
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"test-pod-NNN","namespace":"ns",\
    "uid":"39cb0905-d855-4db9-8c7a-beeb3aecbNNN","resourceVersion":"NNN",\
    "creationTimestamp":"2026-11-26T14:22:40Z","labels":{"app":"bench"}},"spec":{\
    "containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"claims":\
    [{"name":"gpu"}]},"imagePullPolicy":"IfNotPresent","terminationMessagePath":\
    "/dev/termination-log","terminationMessagePolicy":"File"}],"resourceClaims":[{"name":\
    "gpu","resourceClaimTemplateName":"test-claim-template"}],"nodeName":"node-NNN",\
    "enableServiceLinks":true,"dnsPolicy":"ClusterFirst","restartPolicy":"Always",\
    "securityContext":{},"terminationGracePeriodSeconds":30,"schedulerName":\
    "default-scheduler","tolerations":[{"key":"node.kubernetes.io/not-ready","operator":\
    "Exists","effect":"NoExecute","tolerationSeconds":300},{"key":\
    "node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute",\
    "tolerationSeconds":300}],"serviceAccountName":"default","priority":0,\
    "preemptionPolicy":"PreemptLowerPriority"},"status":{"phase":"Pending","conditions":\
    [{"type":"PodScheduled","status":"True","lastTransitionTime":"2026-11-26T14:22:41Z"}],\
    "qosClass":"BestEffort","resourceClaimStatuses":[{"name":"gpu","resourceClaimName":\
    "test-pod-NNN-gpu-abcde"}]}}\
    """
        .replace("NNN", Integer.toString(1000 + i));
  }
}
