// The flash error model's arithmetic (flash/bit_errors.h): the raw bit error
// rate is Kim, Choi and Min's Equation 1 with their sets, the draws have the
// Poisson mean, and the recovery steps go first read, retries, soft
// decoding, uncorrectable, adding their reads and decode times.
#include "flash/bit_errors.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ssdlab::flash {
namespace {

// Equation 1 written out with the TLC set's numbers (FAST 2019), apart
// from the code under test.
double tlc_equation(double c, double t, double r) {
  return 1.48e-3 + 3.90e-10 * std::pow(c, 2.05) + 6.28e-5 * std::pow(c, 0.14) * std::pow(t, 0.54) +
         3.73e-9 * std::pow(c, 0.33) * std::pow(r, 1.71);
}
double mlc_equation(double c, double t, double r) {
  return 8.34e-5 + 3.30e-11 * std::pow(c, 1.71) + 5.56e-19 * std::pow(c, 2.49) * std::pow(t, 3.33) +
         6.26e-13 * std::pow(c, 1.76) * std::pow(r, 0.47);
}

TEST(RberModel, IsThePublishedEquationWithItsSets) {
  const RberModel tlc = tlc_fast19(), mlc = mlc_fast19();
  for (const double c : {0.0, 100.0, 1000.0, 3000.0})
    for (const double t : {0.0, 1.0, 30.0, 365.0})
      for (const double r : {0.0, 10.0, 1000.0}) {
        EXPECT_NEAR(tlc.rber(c, t, r, 0), std::min(tlc_equation(c, t, r), 0.5), 1e-12)
            << c << " " << t << " " << r;
        EXPECT_NEAR(mlc.rber(c, t, r, 0), mlc_equation(c, t, r), 1e-12);
      }
  // A fresh page is the constant term alone.
  EXPECT_DOUBLE_EQ(tlc.rber(0, 0, 0, 0), 1.48e-3);
}

TEST(RberModel, GrowsWithWearRetentionAndReadsAndScalesByPageType) {
  RberModel m = tlc_fast19();
  EXPECT_LT(m.rber(500, 30, 10, 0), m.rber(1500, 30, 10, 0));
  EXPECT_LT(m.rber(1000, 1, 10, 0), m.rber(1000, 90, 10, 0));
  EXPECT_LT(m.rber(1000, 30, 10, 0), m.rber(1000, 30, 1000, 0));
  m.page_factor = {1, 2, 3, 1};
  EXPECT_DOUBLE_EQ(m.rber(1000, 30, 10, 2), 3 * m.rber(1000, 30, 10, 0));
  EXPECT_EQ(m.rber(1e6, 1e4, 1e6, 0), 0.5);  // never beyond random bits
}

TEST(BitErrorDraws, HaveThePoissonMeanFewOrMany) {
  for (const double mean : {0.5, 12.0, 150.0}) {
    double sum = 0, sum2 = 0;
    const int draws = 20000;
    for (int i = 0; i < draws; ++i) {
      const double x =
          draw_bit_errors(mean / 32768.0, 32768.0, uniform_of(2 * i), uniform_of(2 * i + 1));
      sum += x;
      sum2 += x * x;
    }
    const double m = sum / draws, variance = sum2 / draws - m * m;
    // Five standard errors of the mean; the variance of a Poisson is its mean.
    EXPECT_NEAR(m, mean, 5 * std::sqrt(mean / draws)) << mean;
    EXPECT_NEAR(variance, mean, 0.1 * mean + 0.05) << mean;
  }
  EXPECT_EQ(draw_bit_errors(0, 32768, 0.5, 0.5), 0u);
}

TEST(Uniforms, AreInsideTheOpenIntervalAndDependOnTheKey) {
  for (std::uint64_t key = 0; key < 1000; ++key) {
    const double u = uniform_of(key);
    EXPECT_GT(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
  EXPECT_NE(uniform_of(1), uniform_of(2));
  EXPECT_EQ(uniform_of(7), uniform_of(7));
}

EccModel ecc() {
  EccModel e;
  e.correctable_bits = 100;
  e.decode_ns = 2000;
  e.decode_ns_per_error = 10;
  e.retries = 3;
  e.retry_error_factor = 0.5;
  e.soft_reads = 4;
  e.soft_correctable_bits = 250;
  e.soft_decode_ns = 20000;
  return e;
}

TEST(ReadRecovery, TakesEachStepInTurn) {
  const EccModel e = ecc();
  ReadRecovery r = recover(e, 80);
  EXPECT_EQ(r.step, ReadRecovery::Step::kFirstRead);
  EXPECT_EQ(r.extra_reads, 0u);
  EXPECT_EQ(r.decode_ns, 2000 + 800);

  r = recover(e, 300);  // 150, then 75: the second retry corrects it
  EXPECT_EQ(r.step, ReadRecovery::Step::kRetry);
  EXPECT_EQ(r.retries, 2u);
  EXPECT_EQ(r.extra_reads, 2u);
  // The failed first decode runs to the limit, then each retry decodes.
  EXPECT_EQ(r.decode_ns, (2000 + 1000) + (2000 + 1000) + (2000 + 750));

  r = recover(e, 1600);  // 800, 400, 200: past the retries; 200 <= 250 soft
  EXPECT_EQ(r.step, ReadRecovery::Step::kSoft);
  EXPECT_EQ(r.retries, 3u);
  EXPECT_EQ(r.extra_reads, 3u + 4u);
  EXPECT_EQ(r.decode_ns, 4 * 3000 + 20000);

  r = recover(e, 4000);
  EXPECT_EQ(r.step, ReadRecovery::Step::kUncorrectable);
  EXPECT_EQ(r.extra_reads, 7u);
}

TEST(ReadRecovery, WithoutRetriesOrSoftDecodingAFailedDecodeIsUncorrectable) {
  EccModel e;
  e.correctable_bits = 10;
  EXPECT_EQ(recover(e, 10).step, ReadRecovery::Step::kFirstRead);
  const ReadRecovery r = recover(e, 11);
  EXPECT_EQ(r.step, ReadRecovery::Step::kUncorrectable);
  EXPECT_EQ(r.extra_reads, 0u);
}

}  // namespace
}  // namespace ssdlab::flash
