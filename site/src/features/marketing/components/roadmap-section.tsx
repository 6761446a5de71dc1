import { siteConfig } from '../../../config/site';
import { SECTION_IDS } from '../../../config/paths';
import { roadmapPhases } from '../../../content/home-content';
import { HomeSection } from './home-section';

/** RoadmapSection shows "The Royal Path": active phases lit in gold, upcoming ones dimmed. */
export function RoadmapSection() {
  return (
    <HomeSection id={SECTION_IDS.roadmap} eyebrow="Roadmap" title="The Royal Path">
      <ol className="mx-auto grid max-w-6xl gap-5 md:grid-cols-2 lg:grid-cols-4">
        {roadmapPhases(siteConfig.coinName).map((phase) => {
          const active = phase.status === 'active';
          return (
            <li
              key={phase.phase}
              data-status={phase.status}
              className={`rounded-3xl border p-6 ${
                active
                  ? 'border-gold-300/60 bg-gradient-to-b from-royal-700/70 to-royal-900/80 shadow-[0_0_40px_-15px_rgba(245,197,66,0.6)]'
                  : 'border-white/10 bg-royal-900/50 opacity-75 saturate-50'
              }`}
            >
              <div className="mb-4 flex items-center justify-between gap-2">
                <span className="text-sm font-bold tracking-[0.2em] text-white/80 uppercase">
                  Phase {phase.phase}
                </span>
                <span
                  className={`rounded-full px-3 py-1 text-xs font-bold ${
                    active ? 'bg-sol-green text-royal-950' : 'border border-white/40 text-white/90'
                  }`}
                >
                  {active ? 'Active' : 'Upcoming'}
                </span>
              </div>
              <h3
                className={`font-display mb-4 text-2xl font-bold ${active ? 'text-gold-100' : 'text-white'}`}
              >
                {phase.title}
              </h3>
              <ul className="space-y-2">
                {phase.items.map((item) => (
                  <li
                    key={item}
                    className={`flex gap-2 text-white/90 before:content-['◆'] ${active ? 'before:text-gold-300' : 'before:text-white/70'}`}
                  >
                    {item}
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ol>
    </HomeSection>
  );
}
