package io.jdra.exampledriver;

import io.jdra.kubeletplugin.DeviceHealth;
import io.jdra.runtime.Ctx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Simulated device health, set by hand: the file {@code <plugin dir>/device-health} has one line
 * per device that is not healthy, {@code <device> <HEALTHY|UNHEALTHY|UNKNOWN> [message]} ({@code #}
 * starts a comment). Devices not listed are healthy. The file is checked every second; every change
 * is streamed to the kubelet. Example: {@code echo "gpu-3 UNHEALTHY fan failure" >
 * /var/lib/kubelet/plugins/gpu.example.com/device-health}.
 */
final class HealthFile {
  static final String FILE = "device-health";

  private final Path file;
  private final String pool;
  private final List<String> devices;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private volatile List<DeviceHealth> current;
  private FileTime lastModified;
  private boolean lastExisted;

  HealthFile(Path dir, String pool, List<String> devices, Instant now) {
    this.file = dir.resolve(FILE);
    this.pool = pool;
    this.devices = List.copyOf(devices);
    this.current = read(now);
  }

  Path path() {
    return file;
  }

  List<DeviceHealth> current() {
    return current;
  }

  AutoCloseable watch(Runnable onChange) {
    listeners.add(onChange);
    return () -> listeners.remove(onChange);
  }

  /** Polls the file until {@code ctx} is cancelled; run on its own (virtual) thread. */
  void run(Ctx ctx) {
    try {
      while (ctx.sleep(java.time.Duration.ofSeconds(1))) {
        check(ctx.clock().now());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Re-reads the file if it changed and tells the listeners. */
  void check(Instant now) {
    FileTime modified = null;
    boolean exists;
    try {
      modified = Files.getLastModifiedTime(file);
      exists = true;
    } catch (IOException e) {
      exists = false;
    }
    if (exists == lastExisted && java.util.Objects.equals(modified, lastModified)) {
      return;
    }
    current = read(now);
    listeners.forEach(Runnable::run);
  }

  private List<DeviceHealth> read(Instant now) {
    Map<String, String[]> overrides = new HashMap<>();
    try {
      lastModified = Files.getLastModifiedTime(file);
      lastExisted = true;
      for (String line : Files.readAllLines(file)) {
        String l = line.strip();
        if (l.isEmpty() || l.startsWith("#")) {
          continue;
        }
        String[] parts = l.split("\\s+", 3);
        overrides.put(parts[0], parts);
      }
    } catch (NoSuchFileException e) {
      lastExisted = false;
      lastModified = null;
    } catch (IOException e) {
      lastExisted = false;
    }
    List<DeviceHealth> out = new ArrayList<>();
    for (String d : devices) {
      String[] o = overrides.get(d);
      DeviceHealth.Status status = DeviceHealth.Status.HEALTHY;
      String message = "";
      if (o != null && o.length > 1) {
        try {
          status = DeviceHealth.Status.valueOf(o[1].toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
          status = DeviceHealth.Status.UNKNOWN;
          message = "invalid health \"" + o[1] + "\" in " + file;
        }
        if (o.length > 2) {
          message = o[2];
        }
      }
      out.add(new DeviceHealth(pool, d, status, now, 0, message));
    }
    return List.copyOf(out);
  }
}
