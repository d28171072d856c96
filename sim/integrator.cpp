#include "sim/integrator.h"

#include <stdexcept>

#include "sim/approximate_implicit.h"
#include "sim/conjugate_gradient.h"
#include "sim/explicit_integrators.h"
#include "sim/generalized_implicit.h"
#include "sim/runge_kutta45.h"
#include "sim/gauss_seidel.h"
#include "sim/multigrid_solver.h"

namespace weft {

std::unique_ptr<Integrator> make_integrator(IntegratorKind kind, const ClothModel& model, const SolverOptions& options) {
  switch (kind) {
    case IntegratorKind::ApproximateImplicit:
      if (options.iterations < 1) throw std::invalid_argument("iterations must be at least 1");
      if (options.iterations % 2 == 0 && !options.allow_even_iterations)
        throw std::invalid_argument("iterations must be odd: an even k tends to be unstable (Kang & Cho 4.2)");
      return std::make_unique<ApproximateImplicitIntegrator>(model, options.iterations, options.translation_correction);
    case IntegratorKind::ConjugateGradient: return std::make_unique<ConjugateGradientIntegrator>(model, options);
    case IntegratorKind::GaussSeidel:
      if (options.gs_sweeps < 1) throw std::invalid_argument("Gauss-Seidel needs at least 1 sweep");
      if (!(options.gs_chebyshev_rho >= 0.f && options.gs_chebyshev_rho < 1.f))
        throw std::invalid_argument("the Chebyshev estimate must lie in [0, 1)");
      return std::make_unique<GaussSeidelIntegrator>(model, options);
    case IntegratorKind::Multigrid:
      if (options.mg_max_iterations < 1) throw std::invalid_argument("multigrid needs at least 1 iteration");
      if (!(options.mg_tolerance > 0.f)) throw std::invalid_argument("mg_tolerance must be positive");
      if (options.mg_threads < 1 || options.mg_threads > 2) throw std::invalid_argument("mg_threads must be 1 or 2");
      return std::make_unique<MultigridIntegrator>(model, options);
    case IntegratorKind::SymplecticEuler: return std::make_unique<SymplecticEulerIntegrator>(model);
    case IntegratorKind::RungeKutta4: return std::make_unique<RungeKutta4Integrator>(model);
    case IntegratorKind::GeneralizedEuler:
    case IntegratorKind::Bdf2:
      if (!(options.alpha >= 0.5f && options.alpha <= 1.f))
        throw std::invalid_argument("alpha must lie in [0.5, 1] (0.5 midpoint, 1 backward Euler; below 0.5 is unstable)");
      if (kind == IntegratorKind::Bdf2) return std::make_unique<Bdf2Integrator>(model, options.alpha, options);
      return std::make_unique<GeneralizedEulerIntegrator>(model, options.alpha, options);
    case IntegratorKind::RungeKutta45:
      if (!(options.rk_tolerance > 0.f)) throw std::invalid_argument("rk_tolerance must be positive");
      return std::make_unique<RungeKutta45Integrator>(model, options.rk_tolerance);
  }
  throw std::invalid_argument("unknown integrator");
}

IntegratorKind parse_integrator_kind(const std::string& name) {
  if (name == "mg") return IntegratorKind::Multigrid;
  if (name == "gs") return IntegratorKind::GaussSeidel;
  if (name == "approx") return IntegratorKind::ApproximateImplicit;
  if (name == "cg") return IntegratorKind::ConjugateGradient;
  if (name == "euler") return IntegratorKind::SymplecticEuler;
  if (name == "rk4") return IntegratorKind::RungeKutta4;
  if (name == "be") return IntegratorKind::GeneralizedEuler;
  if (name == "bdf2") return IntegratorKind::Bdf2;
  if (name == "rk45") return IntegratorKind::RungeKutta45;
  throw std::invalid_argument("unknown solver '" + name + "' (expected mg, gs, approx, cg, euler, rk4, be, bdf2 or rk45)");
}

const char* integrator_kind_name(IntegratorKind kind) {
  switch (kind) {
    case IntegratorKind::ApproximateImplicit: return "approx";
    case IntegratorKind::ConjugateGradient: return "cg";
    case IntegratorKind::GaussSeidel: return "gs";
    case IntegratorKind::Multigrid: return "mg";
    case IntegratorKind::SymplecticEuler: return "euler";
    case IntegratorKind::RungeKutta4: return "rk4";
    case IntegratorKind::GeneralizedEuler: return "be";
    case IntegratorKind::Bdf2: return "bdf2";
    case IntegratorKind::RungeKutta45: return "rk45";
  }
  return "?";
}

}  // namespace weft
