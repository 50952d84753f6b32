package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * podgroup-resourceclaimtemplate: two PodGroups ({@code scheduling.k8s.io/v1alpha2}) of two pods
 * each, with the README's two GPUs ({@code --num-devices 2}). With GenericWorkload, GangScheduling
 * and DRAWorkloadResourceClaims the claim controller generates one claim per PodGroup, reserved for
 * the group, and both pods of a group see the same GPU. With the gates off (the default), the API
 * does not serve PodGroups and drops the pods' {@code schedulingGroup}: each pod gets its own
 * claim, so two of the four pods find no GPU and stay Pending.
 */
class PodGroupDemoE2ETest {
  static final String NS = "podgroup-resourceclaimtemplate";

  @TempDir static Path dir;
  static Path manifest;

  @BeforeAll
  static void examples() {
    manifest = Demos.examplesOrSkip().resolve(NS + "/" + NS + ".yaml");
  }

  @Test
  void eachGroupSharesOneGeneratedClaim() throws Exception {
    try (JdraUpProcess up =
        JdraUpProcess.start(
            dir.resolve("on"),
            "--num-devices=2",
            "--feature-gates=GenericWorkload=true,GangScheduling=true,DRAWorkloadResourceClaims=true")) {
      up.kubectl().run("apply", "-f", manifest.toString()).ok();
      List<Pod> pods = awaitPods(up, 4, p -> "Running".equals(p.getStatus().getPhase()));

      List<ResourceClaim> claims = Demos.claims(up, NS);
      assertThat(claims).as("one claim per PodGroup").hasSize(2);
      Set<String> devices = new HashSet<>();
      for (ResourceClaim c : claims) {
        String group = c.getMetadata().getOwnerReferences().get(0).getName();
        assertThat(c.getMetadata().getOwnerReferences().get(0).getKind()).isEqualTo("PodGroup");
        assertThat(c.getMetadata().getName()).matches(group + "-gpu-[a-z0-9]{5}");
        assertThat(c.getMetadata().getAnnotations())
            .containsEntry("resource.kubernetes.io/podgroup-claim-name", "gpu");
        assertThat(c.getStatus().getReservedFor())
            .singleElement()
            .satisfies(r -> {
              assertThat(r.getApiGroup()).isEqualTo("scheduling.k8s.io");
              assertThat(r.getResource()).isEqualTo("podgroups");
              assertThat(r.getName()).isEqualTo(group);
            });
        String device = c.getStatus().getAllocation().getDevices().getResults().get(0).getDevice();
        devices.add(device);
        assertThat(podGroupStatusClaim(up, group)).isEqualTo(c.getMetadata().getName());
        for (Pod p : pods) {
          if (!group.equals(p.getSpec().getSchedulingGroup().getPodGroupName())) {
            continue;
          }
          assertThat(p.getStatus().getResourceClaimStatuses())
              .singleElement()
              .satisfies(
                  s -> assertThat(s.getResourceClaimName()).isEqualTo(c.getMetadata().getName()));
          Demos.awaitLogLine(
              up,
              NS,
              p.getMetadata().getName(),
              "declare -x GPU_DEVICE_" + device.substring(4) + "=\"" + device + "\"");
        }
      }
      assertThat(devices).as("each group its own GPU").hasSize(2);
      // The README's check, as the user runs it.
      String logs = up.kubectl().run("logs", "-n", NS, "--tail=-1", "-l", "app=group-1").ok().out();
      List<String> gpuLines =
          logs.lines()
              .filter(l -> l.matches("declare -x GPU_DEVICE_[0-9]+=\"gpu-[0-9]+\""))
              .toList();
      assertThat(gpuLines).as(logs).hasSize(2);
      assertThat(new HashSet<>(gpuLines)).as("both pods of group-1 see the same GPU").hasSize(1);

      Demos.deleteAndAwaitGone(up, NS, manifest);
    }
  }

  @Test
  void withoutTheGatesEachPodHasItsOwnClaimAndTwoStayPending() throws Exception {
    try (JdraUpProcess up = JdraUpProcess.start(dir.resolve("off"), "--num-devices=2")) {
      Kubectl.Result r = up.kubectl().run("apply", "-f", manifest.toString());
      assertThat(r.exit()).isNotZero();
      assertThat(r.err())
          .contains("no matches for kind \"PodGroup\" in version \"scheduling.k8s.io/v1alpha2\"");
      List<Pod> pods = awaitPods(up, 4, p -> p.getStatus() != null);
      assertThat(pods).allMatch(p -> p.getSpec().getSchedulingGroup() == null);
      await()
          .atMost(Demos.TIMEOUT)
          .pollInterval(Demos.POLL)
          .untilAsserted(() -> {
            List<Pod> now = up.client().pods().inNamespace(NS).list().getItems();
            assertThat(now).filteredOn(p -> "Running".equals(p.getStatus().getPhase())).hasSize(2);
            assertThat(now)
                .filteredOn(p -> "Pending".equals(p.getStatus().getPhase()))
                .hasSize(2)
                .allSatisfy(p ->
                    assertThat(scheduled(p).getMessage()).contains("cannot allocate all claims"));
          });
      assertThat(Demos.claims(up, NS)).as("one claim per pod").hasSize(4);

      up.kubectl().run("delete", "-f", manifest.toString(), "--wait=true");
      Demos.awaitNamespaceAndClaimsGone(up, NS);
    }
  }

  private static List<Pod> awaitPods(
      JdraUpProcess up, int n, java.util.function.Predicate<Pod> each) {
    return await()
        .atMost(Demos.TIMEOUT)
        .pollInterval(Demos.POLL)
        .until(
            () -> up.client().pods().inNamespace(NS).list().getItems(),
            ps -> ps.size() == n && ps.stream().allMatch(each));
  }

  @SuppressWarnings("unchecked")
  private static String podGroupStatusClaim(JdraUpProcess up, String group) throws Exception {
    GenericKubernetesResource pg =
        up.client()
            .genericKubernetesResources("scheduling.k8s.io/v1alpha2", "PodGroup")
            .inNamespace(NS)
            .withName(group)
            .get();
    Map<String, Object> status = (Map<String, Object>) pg.getAdditionalProperties().get("status");
    List<Map<String, Object>> list =
        (List<Map<String, Object>>) status.get("resourceClaimStatuses");
    assertThat(list).hasSize(1);
    assertThat(list.get(0)).containsEntry("name", "gpu");
    return (String) list.get(0).get("resourceClaimName");
  }

  private static PodCondition scheduled(Pod p) {
    return p.getStatus().getConditions().stream()
        .filter(c -> "PodScheduled".equals(c.getType()))
        .findFirst()
        // An AssertionError, so that an await().untilAsserted retries while the scheduler has not
        // written the condition yet (any other exception ends the wait at once).
        .orElseThrow(() ->
            new AssertionError(
                "pod " + p.getMetadata().getName() + " has no PodScheduled condition yet"));
  }
}
