import { Link } from "./Link";

/** A short notice with the one step that gets the member further ("Log in", "Search members"). */
export function NextStepNotice({
  text,
  href,
  action,
  className = "",
}: {
  text: string;
  href: string;
  action: string;
  className?: string;
}) {
  return (
    <div className={className ? `notice ${className}` : "notice"}>
      <p>{text}</p>
      <Link href={href} className="button button--primary">
        {action}
      </Link>
    </div>
  );
}
