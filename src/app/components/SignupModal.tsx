import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import { useRouter, useT } from "../page/page-context";

/** The form arrives when the modal first opens: most pages never open it, so its code is not in their first download. */
const SignupForm = lazy(() => import("./SignupForm").then((module) => ({ default: module.SignupForm })));

type SignupModal = {
  /** Open the signup modal, with the reason the visitor needs an account ("You need to be logged in to chat"). */
  openSignup: (reason?: string) => void;
};

const SignupModalContext = createContext<SignupModal | null>(null);

/**
 * Lets any screen ask a visitor to sign up. Layouts that have the modal (Default, Empty) provide it;
 * elsewhere the visitor goes to the signup page instead.
 */
export function useSignupModal(): SignupModal {
  const context = useContext(SignupModalContext);
  const { navigate } = useRouter();
  return context ?? { openSignup: () => navigate("/signup") };
}

type State = { open: boolean; reason: string | null; opened: number };

/** The signup modal of the Default and Empty layouts (SPEC §2) and the way to open it. */
export function SignupModalProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ open: false, reason: null, opened: 0 });
  const openSignup = useCallback(
    (reason?: string) => setState((s) => ({ open: true, reason: reason ?? null, opened: s.opened + 1 })),
    [],
  );
  const close = useCallback(() => setState((s) => ({ ...s, open: false })), []);
  const value = useMemo(() => ({ openSignup }), [openSignup]);
  return (
    <SignupModalContext.Provider value={value}>
      {children}
      {/* A fresh form each time it opens. */}
      {state.open && <SignupDialog key={state.opened} reason={state.reason} onClose={close} />}
    </SignupModalContext.Provider>
  );
}

/**
 * The modal itself. While signup is in progress (the form was touched or is being sent) neither the
 * backdrop nor Escape closes it; it closes when signup completes, when the visitor goes to log in,
 * or with its close button.
 */
function SignupDialog({ reason, onClose }: { reason: string | null; onClose: () => void }) {
  const t = useT();
  // Once the form is touched, signup is in progress (sending needs a touched form too). A ref, set in
  // the form's own event, so an Escape right after typing already sees it.
  const inProgress = useRef(false);
  const touched = useCallback(() => void (inProgress.current = true), []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !inProgress.current) onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  useEffect(() => {
    const { overflow } = document.body.style;
    document.body.style.overflow = "hidden";
    return () => void (document.body.style.overflow = overflow);
  }, []);

  return (
    <div
      className="modal-backdrop modal-backdrop--scroll"
      onClick={(event) => {
        if (event.target === event.currentTarget && !inProgress.current) onClose();
      }}
    >
      <div className="modal signup-modal" role="dialog" aria-modal="true" aria-labelledby="signup-modal-title">
        <div className="modal__header">
          <h2 id="signup-modal-title">{t("signup.title")}</h2>
          <button type="button" className="modal__close" aria-label={t("signup.close")} onClick={onClose}>
            ×
          </button>
        </div>
        <p className="signup-modal__reason">{reason ?? t("signup.intro")}</p>
        <Suspense fallback={<p aria-busy="true">{t("search.loading")}</p>}>
          <SignupForm onTouched={touched} onLeave={onClose} />
        </Suspense>
      </div>
    </div>
  );
}
