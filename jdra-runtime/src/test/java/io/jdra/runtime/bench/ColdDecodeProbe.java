package io.jdra.runtime.bench;

import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.runtime.client.Clients;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * Thread CPU per watch event decoded ({@link WatchDecodeBench}'s nine events of a steady-state
 * pod), with the caches warm as in {@link WatchDecodeProbe}'s loop, or with {@code MB} of memory
 * walked between two decodes as other threads of a busy process would: on a 2-core VM with 1 MiB of
 * L2 per core, walking 1 MiB made a decode 4-8 times as expensive, which is what an event cost in
 * {@code jdra bench scheduler} against {@code WatchDecodeProbe}.
 *
 * <pre>java -cp ... io.jdra.runtime.bench.ColdDecodeProbe MB [sleep us between decodes]</pre>
 */
public final class ColdDecodeProbe {
  private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
  static long sink;

  public static void main(String[] args) throws Exception {
    int thrashMb = Integer.parseInt(args[0]);
    long sleepMicros = args.length > 1 ? Long.parseLong(args[1]) : 0;
    List<String> events = WatchDecodeBench.steadyStatePodEvents();
    KubernetesSerialization pods = Clients.trimmedSerialization();
    KubernetesSerialization claims = Clients.sharedSerialization();
    KubernetesSerialization[] dec = new KubernetesSerialization[events.size()];
    for (int i = 0; i < dec.length; i++) {
      dec[i] = events.get(i).contains("\"kind\":\"Pod\"") ? pods : claims;
    }
    byte[] junk = new byte[Math.max(1, thrashMb) << 20];
    long end = System.nanoTime() + 20_000_000_000L;
    while (System.nanoTime() < end) {
      for (int i = 0; i < dec.length; i++) {
        sink += dec[i].unmarshal(events.get(i), WatchEvent.class).hashCode();
      }
    }
    for (int round = 0; round < 5; round++) {
      double[] per = new double[dec.length];
      int n = 300;
      for (int k = 0; k < n; k++) {
        for (int i = 0; i < dec.length; i++) {
          if (thrashMb > 0) {
            for (int j = 0; j < junk.length; j += 64) {
              junk[j]++;
            }
          }
          if (sleepMicros > 0) {
            Thread.sleep(0, (int) (sleepMicros * 1000));
          }
          long t0 = MX.getCurrentThreadCpuTime();
          Object o = dec[i].unmarshal(events.get(i), WatchEvent.class);
          per[i] += MX.getCurrentThreadCpuTime() - t0;
          sink += o.hashCode();
        }
      }
      double sum = 0;
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < dec.length; i++) {
        sum += per[i] / n / 1000;
        b.append(String.format(" %.1f", per[i] / n / 1000));
      }
      System.out.printf(
          "thrash %d MB sleep %d us: 9 events %.1f us:%s%n", thrashMb, sleepMicros, sum, b);
    }
  }
}
