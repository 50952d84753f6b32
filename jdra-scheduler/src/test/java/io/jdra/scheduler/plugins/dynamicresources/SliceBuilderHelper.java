package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.jdra.testing.objects.Make;

/** Slices like the example driver's GPU profile, fed straight into a DraManager. */
final class SliceBuilderHelper {
  private SliceBuilderHelper() {}

  static void gpus(DraManager dra, String node, int n, String... attrs) {
    Device[] devs = new Device[n];
    for (int i = 0; i < n; i++) {
      var d = Make.device("gpu-" + i).attr("index", (long) i);
      for (int a = 0; a + 1 < attrs.length; a += 2) {
        d.attr(attrs[a], attrs[a + 1]);
      }
      devs[i] = d.obj();
    }
    dra.sliceChanged(
        Make.slice(node + "-gpu", node, DynamicResourcesTest.DRIVER)
            .pool(node, 1, 1)
            .devices(devs)
            .obj());
  }
}
