package io.jdra.kubelet.sim;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Pod IPs of one node: {@code 10.<a>.<b>.<c>} from a /16 derived from the node name, handed out in
 * order. Unique per node for 65,534 pods; simulated pods never talk to each other, so reuse across
 * very long runs does not matter.
 */
public final class PodIps {
  private final int a;
  private final AtomicInteger next = new AtomicInteger(1);

  public PodIps(String nodeName) {
    this.a = 64 + Math.floorMod(nodeName.hashCode(), 128);
  }

  public String next() {
    int n = Math.floorMod(next.getAndIncrement() - 1, 65534) + 1;
    return "10." + a + "." + (n >> 8) + "." + (n & 0xff);
  }
}
